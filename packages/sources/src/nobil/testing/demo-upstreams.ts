import { readFileSync } from 'node:fs'
import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { distanceKm } from '../../shared/wgs84-point.js'
import { FAKE_NOBIL_KEY, nobilSearchFixture, startFakeNobil } from './fake-nobil.js'

/** The API key the demo's NOBIL accepts. */
export const DEMO_NOBIL_KEY = 'demo'

interface SearchAnswer {
  chargerstations: { csmd: { Position?: unknown } }[]
  [field: string]: unknown
}

const parse = (text: string) => JSON.parse(text) as SearchAnswer
/**
 * The demo's register: the recorded stations near Oslo S and stations written for the demo in
 * Bjørvika and by Grønland, and in Bergen, Trondheim, Stavanger, Tromsø, Kristiansand and Bodø.
 */
const recorded = parse(nobilSearchFixture.toString('utf8'))
const register: SearchAnswer = {
  ...recorded,
  chargerstations: [
    ...recorded.chargerstations,
    ...parse(readFileSync(new URL('./fixtures/search-demo.json', import.meta.url), 'utf8')).chargerstations,
  ],
}

/** JSON as PHP's json_encode writes it, as NOBIL sends it: non-ASCII as \u escapes, slashes as "\/". */
const phpJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replaceAll('/', '\\/')

/**
 * The answer of a `type=near` search in the demo's register: the stations within `distance`
 * metres of `lat`/`long`, nearest first, at most `limit`. A station whose position cannot be
 * read is kept, as the recording has one, so the source's own check still meets it.
 *
 * @example
 * demoNobilSearch(new URL('http://127.0.0.1/search.php?type=near&lat=59.91&long=10.75&distance=5000&limit=500'))
 */
export function demoNobilSearch(url: URL): string {
  const lat = Number(url.searchParams.get('lat'))
  const lon = Number(url.searchParams.get('long'))
  const distance = Number(url.searchParams.get('distance') ?? 5000)
  const limit = Number(url.searchParams.get('limit') ?? 500)
  const near = register.chargerstations
    .map((station) => {
      const at = /^\((-?[\d.]+),\s*(-?[\d.]+)\)$/.exec(String(station.csmd.Position ?? ''))
      return { station, d: at ? 1000 * distanceKm({ lat, lon }, { lat: Number(at[1]), lon: Number(at[2]) }) : 0 }
    })
    .filter(({ d }) => d <= distance)
    .sort((a, b) => a.d - b.d)
    .slice(0, limit)
  return phpJson({ ...register, chargerstations: near.map(({ station }) => station) })
}

/**
 * The `nobil` source's upstream for the offline demo: NOBIL's search accepting the key `demo`
 * (and the tests' key), answering the stations near the point asked for from Oslo to Tromsø.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createTestGateway({ sources: nobil({ apiKey: DEMO_NOBIL_KEY }), upstreams: demo.fakes })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  return demoUpstreams({
    nobil: await startFakeNobil({ keys: [DEMO_NOBIL_KEY, FAKE_NOBIL_KEY], search: demoNobilSearch }),
  })
}
