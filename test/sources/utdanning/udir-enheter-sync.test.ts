import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createSqliteDatasetStore, syncDataset, type CatalogEntry } from '@allmenning/datasets'
import type { FakeUpstream } from '@allmenning/core/testing'
import { udirEnheter, udirJournalPath } from '@allmenning/sources/utdanning'
import { wantsRecord } from '../../../packages/sources/src/utdanning/datasets/crawl-register.js'
import { listItem, nbrUnits, nsrUnits, startFakeNbr, startFakeNsr } from '@allmenning/sources/utdanning/testing'

// syncDataset as `npx allmenning datasets sync udir_enheter` runs it, against local registers
// (ALLMENNING_UPSTREAM_UDIR_NSR/NBR, as the gateway's own override), with the journal in the
// data directory (ALLMENNING_DATA_DIR).
const definitions = {
  module: fileURLToPath(new URL('../../../packages/sources/src/built-in-datasets.ts', import.meta.url)),
  export: 'builtInDatasets',
}
const VARIABLES = ['ALLMENNING_DATA_DIR', 'ALLMENNING_UPSTREAM_UDIR_NSR', 'ALLMENNING_UPSTREAM_UDIR_NBR'] as const
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]))
let dir: string
let nsr: FakeUpstream
let nbr: FakeUpstream

const wanted = {
  nsr: nsrUnits.filter((u) => wantsRecord('nsr', listItem(u))).length,
  nbr: nbrUnits.filter((u) => wantsRecord('nbr', listItem(u))).length,
}
const detailCalls = (fake: FakeUpstream) => fake.requests.filter((path) => path.includes('/enhet/')).length
const listCalls = (fake: FakeUpstream) => fake.requests.filter((path) => /\/enheter\?/.test(path)).length

function loadedEntry(): CatalogEntry | undefined {
  const store = createSqliteDatasetStore({ path: join(dir, 'allmenning.sqlite') })
  try {
    return store.loadedDatasets().get('udir_enheter')
  } finally {
    store.close()
  }
}

const sync = (signal?: AbortSignal) =>
  syncDataset({
    path: join(dir, 'allmenning.sqlite'),
    downloads: join(dir, 'downloads'),
    dataset: udirEnheter,
    definitions,
    loaded: loadedEntry(),
    userAgent: 'allmenning-test',
    ...(signal ? { signal } : {}),
  })

beforeAll(async () => {
  // Five units a page: the school register's twelve are three pages, as the real one's 18,000 are 19.
  ;[nsr, nbr] = await Promise.all([startFakeNsr(undefined, { pageSize: 5 }), startFakeNbr()])
})
afterAll(() => Promise.all([nsr.close(), nbr.close()]))
afterEach(() => {
  // Set and deleted on process.env itself: an import worker copies the real environment.
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete process.env[name]
    else process.env[name] = saved[name]
  }
  rmSync(dir, { recursive: true, force: true })
})

function freshDir() {
  dir = mkdtempSync(join(tmpdir(), 'allmenning-udir-sync-'))
  process.env.ALLMENNING_DATA_DIR = dir
  process.env.ALLMENNING_UPSTREAM_UDIR_NSR = nsr.baseUrl
  process.env.ALLMENNING_UPSTREAM_UDIR_NBR = nbr.baseUrl
}

describe('syncing udir_enheter', () => {
  it('reads both lists and each record of a school or kindergarten in operation once; the next sync reads no record', async () => {
    freshDir()
    nsr.requests.length = 0
    nbr.requests.length = 0
    const first = await sync()
    expect(first).toMatchObject({
      status: 'loaded',
      result: { records: nsrUnits.length + nbrUnits.length, malformed: 0 },
    })
    expect(detailCalls(nsr)).toBe(wanted.nsr)
    expect(detailCalls(nbr)).toBe(wanted.nbr)
    expect(existsSync(udirJournalPath('nsr'))).toBe(true)
    const store = createSqliteDatasetStore({ path: join(dir, 'allmenning.sqlite') })
    try {
      const reader = store.reader(udirEnheter)!
      expect(
        await reader.select('enheter', { where: { orgnr: '971200006' }, columns: ['posisjon', 'lat', 'lon'] }),
      ).toEqual([{ posisjon: 'known', lat: 59.9255, lon: 10.7352 }])
      // Vaterland skole is closed: listed, its record not read.
      expect(
        await reader.select('enheter', { where: { orgnr: '971200065' }, columns: ['aktiv', 'posisjon', 'record'] }),
      ).toEqual([{ aktiv: 0, posisjon: 'not_read', record: null }])
    } finally {
      store.close()
    }
    // The list is read again (Udir sends no validators), the records are not: nothing changed.
    const second = await sync()
    expect(second).toMatchObject({ status: 'loaded' })
    expect(detailCalls(nsr)).toBe(wanted.nsr)
    expect(detailCalls(nbr)).toBe(wanted.nbr)
    // Each sync: the first page (downloaded by sync) and the two more the crawl reads.
    expect(listCalls(nsr)).toBe(6)
  }, 60_000)

  it('reads a record again when the list says its unit changed', async () => {
    freshDir()
    expect(await sync()).toMatchObject({ status: 'loaded' })
    const moved = {
      ...nsrUnits[0]!,
      DatoEndret: '2026-11-28T08:00:00+01:00',
      Koordinat: { Breddegrad: 59.93, Lengdegrad: 10.74, Zoom: 15, GeoKilde: 'GeoNorge' },
    }
    const changed = await startFakeNsr([moved, ...nsrUnits.slice(1)])
    try {
      process.env.ALLMENNING_UPSTREAM_UDIR_NSR = changed.baseUrl
      expect(await sync()).toMatchObject({ status: 'loaded' })
      expect(
        changed.requests.filter((path) => path.includes('/enhet/')).map((path) => path.split('/enhet/')[1]),
      ).toEqual(['971200006'])
      const store = createSqliteDatasetStore({ path: join(dir, 'allmenning.sqlite') })
      try {
        expect(
          await store
            .reader(udirEnheter)!
            .select('enheter', { where: { orgnr: '971200006' }, columns: ['lat', 'lon', 'celle'] }),
        ).toEqual([{ lat: 59.93, lon: 10.74, celle: '5993:537' }])
      } finally {
        store.close()
      }
    } finally {
      await changed.close()
    }
  }, 60_000)
})
