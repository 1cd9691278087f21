import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createTestGateway } from '@allmenning/core/testing'
import { createLoadedDatasets } from '@allmenning/datasets/testing'
import {
  ADDRESS_POINTS_FILE,
  adressepunkter,
  geocodeEstablishmentAddresses,
  mattilsynet,
  smilefjes,
} from '@allmenning/sources/mattilsynet'
import { FIXTURE_LINES, smilefjesCsv, startFakeKartverketAddresses } from '@allmenning/sources/mattilsynet/testing'

// The geocoding step that derives the placed addresses writes a file in the store's folder and
// the real import loads it: it stays here, with the SQLite store of @allmenning/datasets. The
// operations' own tests live beside the source, over the in-memory store.

const now = () => new Date('2026-11-28T10:00:00Z')

describe('the geocoding step', () => {
  it('asks Kartverket once per new address, within its budget, appends as it goes, and goes on where it stopped', async () => {
    const kartverket = await startFakeKartverketAddresses()
    const store = createLoadedDatasets()
    try {
      await store.load(smilefjes, [{ file: 'smilefjes-tilsyn.csv', bytes: smilefjesCsv(FIXTURE_LINES) }])
      const reader = store.store.reader(smilefjes)!
      const file = join(store.dir, ADDRESS_POINTS_FILE)
      const progress: number[] = []
      const started = performance.now()
      const first = await geocodeEstablishmentAddresses({
        reader,
        file,
        baseUrl: kartverket.baseUrl,
        maxRequests: 4,
        concurrency: 1,
        requestsPerSecond: 20,
        now,
        onProgress: (p) => progress.push(p.done),
      })
      // Four requests at 20 a second: the last starts no sooner than 150 ms after the first.
      expect(performance.now() - started).toBeGreaterThanOrEqual(145)
      // Six distinct addresses (the one without a street is not asked): four now, two left.
      expect(first).toMatchObject({ addresses: 6, known: 0, total: 4, done: 4, failed: 0, remaining: 2 })
      // Once before the first request (what the run is about to do), then once per address.
      expect(progress).toEqual([0, 1, 2, 3, 4])
      expect(kartverket.hits('/sok')).toBe(4)
      const second = await geocodeEstablishmentAddresses({ reader, file, baseUrl: kartverket.baseUrl, now })
      expect(second).toMatchObject({ known: 4, total: 2, remaining: 0 })
      expect(second.placed + first.placed).toBe(5)
      expect(second.notFound + first.notFound).toBe(1) // Torggata 5: Kartverket's fake does not know it
      expect(kartverket.hits('/sok')).toBe(6)
      // A third run asks nothing: every address is known.
      expect(await geocodeEstablishmentAddresses({ reader, file, baseUrl: kartverket.baseUrl, now })).toMatchObject({
        total: 0,
        remaining: 0,
      })
      expect(kartverket.hits('/sok')).toBe(6)
      expect(kartverket.received.every((r) => (r.headers['user-agent'] ?? '').includes('Allmenning'))).toBe(true)
      const text = readFileSync(file, 'utf8')
      expect(text).toContain('karl johans gate 22b|0159;placed;59.91253;10.74215;0301;OSLO;Karl Johans gate 22B;')
      expect(text).toMatch(/torggata 5\|0181;not_found;;;;;;/)
      // The file loads as the placed addresses, and the answers place the rows.
      await store.load(adressepunkter, [{ file: ADDRESS_POINTS_FILE, bytes: readFileSync(file) }])
      const g = createTestGateway({ sources: mattilsynet({ now }), datasets: store.store })
      const rows = (await g.call('mattilsynet', 'search_establishments', { poststed: 'Oslo' })).json.data.establishments
      expect(rows.find((e: { navn: string }) => e.navn === 'Nærbutikken Torggata').plassering).toBe('address_not_found')
      expect(rows.filter((e: { plassering: string }) => e.plassering === 'address')).toHaveLength(3)
      // A year later, the address Kartverket did not know is due again.
      const later = await geocodeEstablishmentAddresses({
        reader,
        file,
        baseUrl: kartverket.baseUrl,
        now: () => new Date('2027-12-01T00:00:00Z'),
      })
      expect(later).toMatchObject({ total: 1, notFound: 1 })
    } finally {
      store.close()
      await kartverket.close()
    }
  })

  it('stops after failures in a row when Kartverket is down, writing nothing for them', async () => {
    const kartverket = await startFakeKartverketAddresses()
    const store = createLoadedDatasets()
    try {
      await store.load(smilefjes, [{ file: 'smilefjes-tilsyn.csv', bytes: smilefjesCsv(FIXTURE_LINES) }])
      kartverket.failWith({ status: 503, body: 'Service Unavailable' })
      const file = join(store.dir, ADDRESS_POINTS_FILE)
      const run = await geocodeEstablishmentAddresses({
        reader: store.store.reader(smilefjes)!,
        file,
        baseUrl: kartverket.baseUrl,
        concurrency: 1,
        maxFailuresInARow: 3,
      })
      expect(run).toMatchObject({ done: 3, failed: 3, placed: 0, remaining: 6 })
      expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(1)
    } finally {
      store.close()
      await kartverket.close()
    }
  })
})
