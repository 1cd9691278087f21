import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSqliteDatasetStore, syncDataset, type CatalogEntry } from '@allmenning/datasets'
import { smilefjes } from '@allmenning/sources/mattilsynet'
import {
  FIXTURE_LINES,
  inspection,
  smilefjesCsv,
  startFakeMattilsynet,
  type FakeMattilsynet,
} from '@allmenning/sources/mattilsynet/testing'

// syncDataset as `npx allmenning datasets sync mattilsynet_smilefjes` runs it, against a local
// data.mattilsynet.no (given as a mirror of the one file) that sends an ETag, as the real host does.
let dir: string
let fake: FakeMattilsynet
const definitions = {
  module: fileURLToPath(new URL('../../../packages/sources/src/mattilsynet/index.ts', import.meta.url)),
  export: 'mattilsynetDatasets',
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'allmenning-smilefjes-sync-'))
  fake = await startFakeMattilsynet()
})
afterAll(async () => {
  await fake.close()
  rmSync(dir, { recursive: true, force: true })
})

function loadedEntry(): CatalogEntry | undefined {
  const store = createSqliteDatasetStore({ path: join(dir, 'allmenning.sqlite') })
  try {
    return store.loadedDatasets().get('mattilsynet_smilefjes')
  } finally {
    store.close()
  }
}

describe('syncing the smilefjes file', () => {
  it('downloads and loads it, asks with its ETag and gets a 304 while it stands, and loads a new version', async () => {
    const sync = () =>
      syncDataset({
        path: join(dir, 'allmenning.sqlite'),
        downloads: join(dir, 'downloads'),
        dataset: smilefjes,
        definitions,
        loaded: loadedEntry(),
        userAgent: 'allmenning-test',
        mirror: `${fake.baseUrl}/smilefjes-tilsyn.csv`,
      })
    expect(await sync()).toMatchObject({ status: 'loaded', result: { records: FIXTURE_LINES.length, malformed: 0 } })
    expect(loadedEntry()!.files[0]!.etag).toMatch(/^"[0-9a-f]{20}"$/)
    expect(await sync()).toEqual({ status: 'unchanged', dataset: 'mattilsynet_smilefjes' })
    expect(fake.received.at(-1)!.headers['if-none-match']).toBe(loadedEntry()!.files[0]!.etag)
    // The next day's file: one more inspection.
    fake.publish(
      smilefjesCsv([
        ...FIXTURE_LINES,
        inspection(
          {
            tilsynsobjektid: 'Z1601011200000000004D',
            navn: 'Nærbutikken Torggata',
            adrlinje1: 'Torggata 5',
            postnr: '0181',
            poststed: 'OSLO',
            tilsynid: 'Z2611271000000000402T',
            dato: '27112026',
          },
          [2, 2, 2, 1, 0],
        ),
      ]),
    )
    expect(await sync()).toMatchObject({ status: 'loaded', result: { records: FIXTURE_LINES.length + 1 } })
    const store = createSqliteDatasetStore({ path: join(dir, 'allmenning.sqlite') })
    try {
      const [shop] = await store
        .reader(smilefjes)!
        .select('tilsynsobjekter', { where: { tilsynsobjektid: 'Z1601011200000000004D' } })
      expect(shop).toMatchObject({ dato: '2026-11-27', karakter: 2 })
    } finally {
      store.close()
    }
  }, 60_000)
})
