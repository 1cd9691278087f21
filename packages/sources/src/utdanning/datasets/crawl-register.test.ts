import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fakeReply, type FakeUpstream } from '@allmenning/core/testing'
import { listItem, nsrUnits, startFakeNsr, udirRoutes } from '../testing/fake-udir.js'
import { crawlRegister, wantsRecord, type CrawledUnit } from './crawl-register.js'
import { unitRow } from './udir-enheter-reader.js'

let fake: FakeUpstream
let dir: string
const wanted = nsrUnits.filter((u) => wantsRecord('nsr', listItem(u))).length
const details = () => fake.requests.filter((path) => path.includes('/enhet/')).length

beforeAll(async () => {
  // Five units a page: the fixture's twelve are three pages.
  fake = await startFakeNsr(undefined, { pageSize: 5 })
  dir = mkdtempSync(join(tmpdir(), 'allmenning-udir-crawl-'))
})
afterAll(async () => {
  await fake.close()
  rmSync(dir, { recursive: true, force: true })
})

async function firstPage(): Promise<unknown> {
  return (await fetch(`${fake.baseUrl}/enheter?sidenummer=1&antallperside=1000`)).json()
}

const options = (journalPath: string, extra: object = {}) => ({
  baseUrl: fake.baseUrl,
  pageSize: 1000,
  journalPath,
  userAgent: 'allmenning-test',
  concurrency: 1,
  requestsPerSecond: 1000,
  retryDelaysMs: [10, 10],
  ...extra,
})

describe('the crawl of a register', () => {
  it('goes on where an interrupted crawl stopped: the records read are in the journal, and only the rest are read', async () => {
    const journal = join(dir, 'resume', 'nsr-records.jsonl')
    const before = details()
    // Stopped after the first units are given to the import (Ctrl-C, a scheduler's SIGTERM, a crash).
    for await (const _ of crawlRegister('nsr', await firstPage(), options(journal))) break
    const readFirst = details() - before
    expect(readFirst).toBeGreaterThan(0)
    expect(readFirst).toBeLessThan(wanted)
    expect(readFileSync(journal, 'utf8').trim().split('\n')).toHaveLength(readFirst)

    const units: CrawledUnit[] = []
    for await (const unit of crawlRegister('nsr', await firstPage(), options(journal))) units.push(unit)
    expect(details() - before).toBe(wanted)
    expect(units).toHaveLength(nsrUnits.length)
    expect(units.filter((u) => u.record !== null)).toHaveLength(wanted)
    // Finished: the journal is written again, one line per unit.
    expect(readFileSync(journal, 'utf8').trim().split('\n')).toHaveLength(wanted)
  })

  it('keeps a unit it cannot read without its record, and stops when the register fails unit after unit', async () => {
    const routes = udirRoutes(nsrUnits)
    const before = fake.requests.length
    fake.route('/enhet/{orgnr}', (url, req, params) =>
      params.orgnr === '971200014' ? fakeReply.status(503) : routes['/enhet/{orgnr}']!(url, req, params),
    )
    const units: CrawledUnit[] = []
    for await (const unit of crawlRegister('nsr', await firstPage(), options(join(dir, 'one-fails.jsonl'))))
      units.push(unit)
    expect(units.find((u) => u.item.Organisasjonsnummer === '971200014')?.record).toBeNull()
    expect(units.filter((u) => u.record !== null)).toHaveLength(wanted - 1)
    // Three tries each.
    expect(fake.requests.slice(before).filter((path) => path.endsWith('/enhet/971200014'))).toHaveLength(3)

    fake.route('/enhet/{orgnr}', () => fakeReply.status(503))
    const crawl = async () => {
      for await (const _ of crawlRegister(
        'nsr',
        await firstPage(),
        options(join(dir, 'all-fail.jsonl'), { maxFailuresInARow: 3 }),
      ))
        void _
    }
    await expect(crawl()).rejects.toThrow(
      /failed 3 records in a row \(last: .*HTTP 503\).*next sync goes on from there/,
    )
    fake.route('/enhet/{orgnr}', routes['/enhet/{orgnr}']!)
  })

  it('refuses a first page that is not a v4 page of units', async () => {
    const crawl = async () => {
      for await (const _ of crawlRegister('nsr', { Message: 'An error has occurred.' }, options(join(dir, 'x.jsonl'))))
        void _
    }
    await expect(crawl()).rejects.toThrow(/page 1 of Udir's school register \(NSR\)'s list is not a v4 page/)
  })

  it('makes a row of each unit: placed with its grid cell, no position for (0, 0), not read for a closed one', () => {
    const item = (i: number) => listItem(nsrUnits[i]!)
    expect(unitRow({ register: 'nsr', item: item(0), record: nsrUnits[0]! })).toMatchObject({
      table: 'enheter',
      row: {
        orgnr: '971200006',
        posisjon: 'known',
        lat: 59.9255,
        lon: 10.7352,
        celle: '5992:536',
        adresse: 'Theresesgate 12',
        aktiv: 1,
      },
    })
    const toyen = nsrUnits.findIndex((u) => u.Organisasjonsnummer === '971200057')
    expect(unitRow({ register: 'nsr', item: item(toyen), record: nsrUnits[toyen]! })).toMatchObject({
      row: { posisjon: 'none', lat: null, celle: null },
    })
    const closed = nsrUnits.findIndex((u) => u.ErAktiv === false)
    expect(unitRow({ register: 'nsr', item: item(closed), record: null })).toMatchObject({
      row: { posisjon: 'not_read', aktiv: 0, record: null },
    })
    expect(() => unitRow({ register: 'nsr', item: { Navn: 'Uten nummer' }, record: null })).toThrow(
      /without Organisasjonsnummer/,
    )
  })
})
