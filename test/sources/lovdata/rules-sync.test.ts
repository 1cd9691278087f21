import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSqliteDatasetStore, syncDataset, type CatalogEntry } from '@allmenning/datasets'
import { startFakeLovdata, type FakeLovdata } from '../../../packages/sources/src/lovdata/testing/fake-lovdata.js'
import { rulesPublishedAt } from '../../../packages/sources/src/lovdata/testing/published-rule-datasets.js'

// syncDataset as the command line runs it, against a local Lovdata whose archives carry no
// ETag or Last-Modified, as the real ones do not: the listing's date decides.
let dir: string
let fake: FakeLovdata
const download = '/v1/publicData/get/gjeldende-lover.tar.bz2'
const definitions = {
  module: fileURLToPath(
    new URL('../../../packages/sources/src/lovdata/testing/published-rule-datasets.ts', import.meta.url),
  ),
  export: 'datasets',
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'allmenning-lovdata-sync-'))
  fake = await startFakeLovdata()
  // The import worker reads the catalog module, which takes Lovdata's address from here.
  process.env.ALLMENNING_TEST_LOVDATA = fake.baseUrl
})
afterAll(async () => {
  delete process.env.ALLMENNING_TEST_LOVDATA
  await fake.close()
  rmSync(dir, { recursive: true, force: true })
})

function loadedEntry(): CatalogEntry {
  const store = createSqliteDatasetStore({ path: join(dir, 'allmenning.sqlite') })
  try {
    return store.loadedDatasets().get('lovdata_lover')!
  } finally {
    store.close()
  }
}

describe('syncing Lovdata’s laws', () => {
  it('downloads once, then nothing while the listing date stands, and again for a version loaded under an older definition', async () => {
    const [laws] = rulesPublishedAt(fake.baseUrl)
    const sync = (loaded: CatalogEntry | undefined) =>
      syncDataset({
        path: join(dir, 'allmenning.sqlite'),
        downloads: join(dir, 'downloads'),
        dataset: laws!,
        definitions,
        loaded,
        userAgent: 'allmenning-test',
      })

    expect(await sync(undefined)).toMatchObject({ status: 'loaded', result: { records: 5 } })
    expect(fake.hits(download)).toBe(1)
    const entry = loadedEntry()
    // The listing's date is kept as the file's validator, and dates the version.
    expect(entry.files[0]).toMatchObject({ etag: null, lastModified: 'Thu, 03 Sep 2026 02:14:07 GMT' })
    expect(entry.publishedAt).toBe('2026-09-03T02:14:07.000Z')

    expect(await sync(entry)).toEqual({ status: 'unchanged', dataset: 'lovdata_lover' })
    expect(fake.hits(download)).toBe(1)

    // Made by an earlier definition of the tables, that version is not served: load it anew.
    expect(await sync({ ...entry, fingerprint: 'older' })).toMatchObject({ status: 'loaded' })
    expect(fake.hits(download)).toBe(2)
  }, 60_000)

  it('asks a failing listing once, downloads, and leaves the version undated', async () => {
    const [laws] = rulesPublishedAt(fake.baseUrl)
    const listings = fake.hits('/v1/publicData/list')
    const downloads = fake.hits(download)
    fake.misbehave('html-list')
    try {
      const result = await syncDataset({
        path: join(dir, 'unlisted.sqlite'),
        downloads: join(dir, 'unlisted-downloads'),
        dataset: laws!,
        definitions,
        loaded: undefined,
        userAgent: 'allmenning-test',
      })
      expect(result).toMatchObject({ status: 'loaded', result: { records: 5, publishedAt: null } })
    } finally {
      fake.misbehave('ok')
    }
    expect(fake.hits('/v1/publicData/list')).toBe(listings + 1)
    expect(fake.hits(download)).toBe(downloads + 1)
  }, 60_000)

  it('from a mirror, goes by the mirror’s Last-Modified and never asks Lovdata’s listing', async () => {
    const [laws] = rulesPublishedAt(fake.baseUrl)
    const archive = Buffer.from(await (await fetch(`${fake.baseUrl}${download}`)).arrayBuffer())
    const lastModified = 'Mon, 16 Nov 2026 04:00:00 GMT'
    const mirrorRequests: Array<string | undefined> = []
    // A plain static file server holding a copy of the archive, as a mirror would.
    const mirror = createServer((request, response) => {
      mirrorRequests.push(request.headers['if-modified-since'])
      if (request.headers['if-modified-since'] === lastModified) return void response.writeHead(304).end()
      response
        .writeHead(200, {
          'content-type': 'application/x-bzip2',
          'content-length': archive.length,
          'last-modified': lastModified,
        })
        .end(archive)
    })
    await new Promise<void>((resolve) => mirror.listen(0, '127.0.0.1', resolve))
    const path = join(dir, 'mirrored.sqlite')
    const sync = (loaded: CatalogEntry | undefined) =>
      syncDataset({
        path,
        downloads: join(dir, 'mirrored-downloads'),
        dataset: laws!,
        definitions,
        loaded,
        userAgent: 'allmenning-test',
        mirror: `http://127.0.0.1:${(mirror.address() as AddressInfo).port}/lovdata/gjeldende-lover.tar.bz2`,
      })
    try {
      const listings = fake.hits('/v1/publicData/list')
      expect(await sync(undefined)).toMatchObject({
        status: 'loaded',
        result: { records: 5, publishedAt: '2026-11-16T04:00:00.000Z' },
      })
      const store = createSqliteDatasetStore({ path })
      const entry = store.loadedDatasets().get('lovdata_lover')!
      store.close()
      // Answers still name Lovdata's address as the source.
      expect(entry.files[0]).toMatchObject({ url: `${fake.baseUrl}${download}`, lastModified })
      expect(await sync(entry)).toEqual({ status: 'unchanged', dataset: 'lovdata_lover' })
      expect(mirrorRequests).toEqual([undefined, lastModified])
      expect(fake.hits('/v1/publicData/list')).toBe(listings)
    } finally {
      mirror.close()
    }
  }, 60_000)
})
