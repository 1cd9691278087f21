import { readFileSync, readdirSync } from 'node:fs'
import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { ssbFixtures, startFakeSsb, type SsbData, type SsbMetadata } from './fake-ssb.js'

const demoDir = new URL('./fixtures/demo/', import.meta.url)
const readJson = (name: string): unknown => JSON.parse(readFileSync(new URL(name, demoDir), 'utf8'))

/**
 * The tables the demo's SSB serves: the test fixtures and, before them in the search, five
 * more in the same formats: 07459, the population table the docs use (its real title and
 * variables, Region with counties and the largest municipalities, 106 ages, 1986–2026, made-up
 * figures), two of our own about Oslo (91250 by district, 91251 by quarter), and two on what
 * else people look up (91300 the consumer price index, 91301 unemployment, monthly), so a
 * search for "befolkning", "folkemengde", "Oslo", "konsumprisindeks" or "arbeidsledige" finds tables.
 *
 * @example
 * ssbDemoFixtures().metadata['07459']?.id // ['Region', 'Kjonn', 'Alder', 'ContentsCode', 'Tid']
 */
export function ssbDemoFixtures(): SsbData {
  const base = ssbFixtures()
  const metadata: Record<string, SsbMetadata> = { ...base.metadata }
  for (const file of readdirSync(demoDir)) {
    const id = /^metadata-(\d{5})\.json$/.exec(file)?.[1]
    if (id) metadata[id] = readJson(file) as SsbMetadata
  }
  return { tables: [...(readJson('tables.json') as SsbData['tables']), ...base.tables], metadata }
}

/**
 * SSB's PxWebApi for the offline demo: {@link startFakeSsb} over {@link ssbDemoFixtures}.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createGateway({ sources: [ssb()], upstreams: { ssb: { baseUrl: demo.fakes.ssb!.baseUrl } } })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  return demoUpstreams({ ssb: await startFakeSsb(ssbDemoFixtures()) })
}
