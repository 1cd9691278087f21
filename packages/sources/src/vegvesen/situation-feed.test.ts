import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testUpstreamClient } from '@allmenning/core/testing'
import { situationState } from './datex-situation.js'
import { vegvesenDatex } from './datex-upstream.js'
import { createSituationFeed, readSituationSnapshot } from './situation-feed.js'
import {
  DATEX_RECORDED_AT,
  DATEX_SNAPSHOT_PATH,
  datexSnapshotFixture,
  FAKE_DATEX_PASSWORD,
  FAKE_DATEX_USERNAME,
  startFakeDatex,
  type FakeDatex,
} from './testing/fake-datex.js'

let datex: FakeDatex

beforeAll(async () => {
  datex = await startFakeDatex({ now: Date.parse(DATEX_RECORDED_AT) })
})
afterAll(() => datex.close())

const client = () => testUpstreamClient(vegvesenDatex, datex.baseUrl)
const credentials = { username: FAKE_DATEX_USERNAME, password: FAKE_DATEX_PASSWORD }

/** A snapshot of `count` situations in the fixture's layout: some megabytes, like the whole country's. */
function bigSnapshot(count: number): string {
  const start = datexSnapshotFixture.indexOf('<ns12:situation id="NPRA_HBT_20-11-2026.4101">')
  const end = datexSnapshotFixture.indexOf('</ns12:situation>', start) + '</ns12:situation>'.length
  const one = datexSnapshotFixture.slice(start, end)
  const many = Array.from({ length: count }, (_, i) =>
    one.replaceAll('NPRA_HBT_20-11-2026.4101', `NPRA_HBT_20-11-2026.${100_000 + i}`),
  ).join('\n')
  return datexSnapshotFixture.slice(0, start) + many + datexSnapshotFixture.slice(end)
}

describe('the situation snapshot', () => {
  it('reads every situation of the fixture, leaving out the test one', async () => {
    const snapshot = await readSituationSnapshot(vegvesenDatex, datexSnapshotFixture)
    expect(snapshot.situations).toHaveLength(9)
    expect(snapshot.leftOut).toBe(1)
    expect(snapshot.situations.map((s) => s.id)).not.toContain('NPRA_HBT_25-11-2026.4140')
    expect(snapshot.publicationTime).toBe('2026-11-25T10:00:00.412+01:00')
    const at = Date.parse(DATEX_RECORDED_AT)
    expect(Object.fromEntries(snapshot.situations.map((s) => [s.id, situationState(s, at)]))).toEqual({
      'NPRA_HBT_20-11-2026.4101': 'active',
      'NPRA_HBT_25-11-2026.4120': 'active',
      'NPRA_HBT_24-11-2026.4098': 'planned',
      'NPRA_HBT_02-11-2026.3005': 'suspended',
      'NPRA_HBT_18-11-2026.3990': 'ended',
      'NPRA_HBT_25-11-2026.4111': 'active',
      'NPRA_HBT_25-11-2026.4130': 'active',
      'NPRA_HBT_25-11-2026.4135': 'active',
      'NPRA_HBT_21-11-2026.4050': 'active',
    })
    // Known only by its ALERT-C codes: no position, so never near anything.
    expect(snapshot.situations.find((s) => s.id === 'NPRA_HBT_21-11-2026.4050')).toMatchObject({
      display: null,
      points: [],
    })
    // Past its end the accident's closure record is still marked active, so the situation is.
    expect(
      situationState(snapshot.situations.find((s) => s.id === 'NPRA_HBT_25-11-2026.4120')!, at + 30 * 86_400_000),
    ).toBe('active')
    expect(
      situationState(snapshot.situations.find((s) => s.id === 'NPRA_HBT_20-11-2026.4101')!, at + 30 * 86_400_000),
    ).toBe('ended')
  })

  it('parses megabytes of situations without holding the event loop', async () => {
    const xml = bigSnapshot(600)
    expect(xml.length).toBeGreaterThan(5_000_000)
    let turns = 0
    let longest = 0
    let last = performance.now()
    const ticker = setInterval(() => {
      const now = performance.now()
      longest = Math.max(longest, now - last)
      last = now
      turns++
    }, 1)
    const startedAt = performance.now()
    const snapshot = await readSituationSnapshot(vegvesenDatex, xml)
    const took = performance.now() - startedAt
    clearInterval(ticker)
    expect(snapshot.situations).toHaveLength(600 + 8)
    // Read in one go, no timer would have run before the end.
    expect(turns).toBeGreaterThan(20)
    expect(longest).toBeLessThan(Math.max(100, took / 5))
  })

  it('asks again with If-Modified-Since once the snapshot is old, and keeps it on a 304', async () => {
    let now = Date.parse(DATEX_RECORDED_AT)
    const feed = createSituationFeed(credentials, () => now)
    const before = datex.hits(DATEX_SNAPSHOT_PATH)
    const first = await feed.get(client())
    expect(first.situations).toHaveLength(9)
    await feed.get(client())
    expect(datex.hits(DATEX_SNAPSHOT_PATH) - before).toBe(1)
    // Past its two minutes the snapshot is served while it is asked for again, conditionally.
    now += 150_000
    expect(await feed.get(client())).toBe(first)
    await expect.poll(() => datex.hits(DATEX_SNAPSHOT_PATH) - before).toBe(2)
    const asked = datex.received[datex.received.length - 1]!
    expect(asked.headers['if-modified-since']).toBe(new Date(Date.parse('2026-11-25T10:00:00+01:00')).toUTCString())
    now += 10_000
    expect(await feed.get(client())).toBe(first)
  })

  it('is a 502 naming both variables when Vegvesen refuses the credentials', async () => {
    const feed = createSituationFeed({ username: FAKE_DATEX_USERNAME, password: 'not-it' })
    await expect(feed.get(client())).rejects.toMatchObject({
      status: 502,
      upstreamStatus: 401,
      message: expect.stringMatching(
        /refused the configured username and password \(HTTP 401\); check ALLMENNING_VEGVESEN_DATEX_USERNAME and ALLMENNING_VEGVESEN_DATEX_PASSWORD$/,
      ),
    })
  })
})
