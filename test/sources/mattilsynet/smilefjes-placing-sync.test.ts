import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway } from '@allmenning/core/testing'
import { createSqliteDatasetStore, runCli } from '@allmenning/datasets'
import { ADDRESS_POINTS_FILE, mattilsynet } from '@allmenning/sources/mattilsynet'
import {
  startFakeKartverketAddresses,
  startFakeMattilsynet,
  type FakeMattilsynet,
} from '@allmenning/sources/mattilsynet/testing'
import type { FakeUpstream } from '@allmenning/core/testing'

// `npx allmenning datasets sync` as a deployment runs it: the smilefjes file from a local
// data.mattilsynet.no (as a mirror), then its addresses placed by a local Kartverket address
// search (ALLMENNING_UPSTREAM_KARTVERKET_ADRESSER), then a gateway answering from the store.
const catalog = `${fileURLToPath(new URL('../../../packages/sources/src/mattilsynet/index.ts', import.meta.url))}#mattilsynetDatasets`
const now = () => new Date('2026-11-28T10:00:00Z')
let mattilsynetFake: FakeMattilsynet
const dirs: string[] = []

beforeAll(async () => {
  mattilsynetFake = await startFakeMattilsynet()
})
afterAll(async () => {
  await mattilsynetFake.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'allmenning-smilefjes-placing-'))
  dirs.push(dir)
  return dir
}

async function datasets(dir: string, kartverket: FakeUpstream, args: string[], signal?: AbortSignal) {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const env = {
    ALLMENNING_DATASET_MATTILSYNET_SMILEFJES_URL: `${mattilsynetFake.baseUrl}/smilefjes-tilsyn.csv`,
    ALLMENNING_UPSTREAM_KARTVERKET_ADRESSER: kartverket.baseUrl,
  }
  const code = await runCli(['datasets', ...args, '--data-dir', dir, '--definitions', catalog], {
    stdout,
    stderr,
    env,
    cwd: dir,
    tty: false,
    ...(signal ? { signal } : {}),
  })
  return { code, stdout: out, stderr: err }
}

/** The addresses Kartverket answered (a 200), as `street|postal code`. */
const answered = (kartverket: FakeUpstream) =>
  kartverket.received.filter((r) => r.route === '/sok').map((r) => `${r.query.get('sok')}|${r.query.get('postnummer')}`)

async function withGateway<T>(
  dir: string,
  use: (
    call: (operation: string, query: Record<string, string | number>) => Promise<{ status: number; json: any }>,
  ) => Promise<T>,
): Promise<T> {
  const store = createSqliteDatasetStore({ path: join(dir, 'allmenning.sqlite'), readonly: true })
  try {
    const gateway = createTestGateway({ sources: mattilsynet({ now }), datasets: store })
    return await use((operation, query) => gateway.call('mattilsynet', operation, query))
  } finally {
    store.close()
  }
}

describe('npx allmenning datasets sync: the smilefjes file, then its addresses placed', () => {
  it('imports smilefjes, places its addresses within the budget, resumes without asking an address twice, and serves positions', async () => {
    const dir = dataDir()
    const kartverket = await startFakeKartverketAddresses()
    try {
      const first = await datasets(dir, kartverket, ['sync', '--budget', '4'])
      expect(first.code, first.stderr).toBe(0)
      expect(first.stdout).toMatch(/^mattilsynet_smilefjes: loaded \d+ rows from 9 records/m)
      expect(first.stdout).toContain(
        'mattilsynet_adressepunkter: 6 distinct addresses, 0 known from earlier runs; asked Kartverket address API for 4: ',
      )
      expect(first.stdout).toContain('; 2 left for a later run')
      expect(first.stdout).toMatch(/^mattilsynet_adressepunkter: loaded 4 rows from 4 records/m)
      // What the run is about to do, how long it takes at its pace, and its last progress line.
      expect(first.stderr).toContain(
        'mattilsynet_adressepunkter: placing addresses: 6 due, 4 in this run (at most 10 a second: about 1 s); 2 left for later runs',
      )
      expect(first.stderr).toMatch(
        /mattilsynet_adressepunkter: placing addresses 4 of 4 \(100%\), \d+\.\d\/s; \d placed/,
      )
      expect(kartverket.hits('/sok')).toBe(4)

      // The next sync: the file is unchanged (ETag), and the two addresses left are asked.
      const second = await datasets(dir, kartverket, ['sync'])
      expect(second.code, second.stderr).toBe(0)
      expect(second.stdout).toContain('mattilsynet_smilefjes: unchanged; nothing downloaded or loaded')
      expect(second.stdout).toContain(
        '6 distinct addresses, 4 known from earlier runs; asked Kartverket address API for 2: ',
      )
      expect(second.stdout).toMatch(/^mattilsynet_adressepunkter: loaded 6 rows/m)
      expect(kartverket.hits('/sok')).toBe(6)

      // A third asks nothing and loads nothing.
      const third = await datasets(dir, kartverket, ['sync'])
      expect(third.code, third.stderr).toBe(0)
      expect(third.stdout).toContain(
        'asked Kartverket address API for 0: 0 placed, 0 not found; 0 left for a later run',
      )
      expect(third.stdout).toContain('mattilsynet_adressepunkter: nothing new; the loaded version stands')
      expect(third.stderr).toContain('mattilsynet_adressepunkter: placing addresses: nothing due\n')
      expect(kartverket.hits('/sok')).toBe(6)
      expect(new Set(answered(kartverket)).size).toBe(6)

      await withGateway(dir, async (call) => {
        const near = await call('find_establishments_nearby', { lat: 59.91, lon: 10.75 })
        expect(near.status).toBe(200)
        expect(
          near.json.data.establishments.map((e: { navn: string; lat: number; lon: number }) => [e.navn, e.lat, e.lon]),
        ).toEqual([
          ['Kafé Kvadraturen', 59.90868, 10.74454],
          ['Sushi "Bølgen" & Co', 59.91253, 10.74215],
        ])
        const search = await call('search_establishments', { poststed: 'Oslo' })
        expect(search.status).toBe(200)
        const placement = Object.fromEntries(
          search.json.data.establishments.map((e: { navn: string; plassering: string }) => [e.navn, e.plassering]),
        )
        expect(placement).toEqual({
          'Kafé Kvadraturen': 'address',
          'Pizzabakeren Grünerløkka': 'address',
          'Sushi "Bølgen" & Co': 'address',
          'Nærbutikken Torggata': 'address_not_found',
          'Kantina på brygga': 'no_address',
        })
        expect(
          search.json.data.establishments.find((e: { navn: string }) => e.navn === 'Pizzabakeren Grünerløkka'),
        ).toMatchObject({ lat: 59.92291, lon: 10.75898, kommunenummer: '0301' })
      })
    } finally {
      await kartverket.close()
    }
  }, 60_000)

  it('keeps and loads what Kartverket answered before it failed midway, names it, and asks only the rest the next time', async () => {
    const dir = dataDir()
    const kartverket = await startFakeKartverketAddresses(undefined, { failAfter: 2 })
    try {
      const failing = await datasets(dir, kartverket, ['sync'])
      expect(failing.code).toBe(1)
      expect(failing.stdout).toMatch(/^mattilsynet_smilefjes: loaded/m)
      const [error, ...others] = failing.stderr.split('\n').filter((line) => line.startsWith('error:'))
      expect(others).toEqual([])
      expect(error).toMatch(
        /^error: mattilsynet_adressepunkter: Kartverket address API failed 4 of 6 requests \(last: Kartverket's address API \(http:\/\/127\.0\.0\.1:\d+\) answered 503 for \/sok\); the 2 answers it gave are kept and loaded, and the next sync asks for the rest$/,
      )
      expect(failing.stdout).toMatch(/^mattilsynet_adressepunkter: loaded 2 rows/m)
      const placedFirst = answered(kartverket).slice(0, 2)

      kartverket.failWith(undefined)
      const resumed = await datasets(dir, kartverket, ['sync', 'mattilsynet_adressepunkter'])
      expect(resumed.code, resumed.stderr).toBe(0)
      // Run alone: the smilefjes file is not asked for.
      expect(resumed.stdout).not.toContain('mattilsynet_smilefjes')
      expect(resumed.stdout).toContain(
        '6 distinct addresses, 2 known from earlier runs; asked Kartverket address API for 4: ',
      )
      expect(kartverket.hits('/sok')).toBe(10)
      const askedAgain = answered(kartverket).slice(6)
      expect(askedAgain.filter((address) => placedFirst.includes(address))).toEqual([])
      await withGateway(dir, async (call) => {
        const near = await call('find_establishments_nearby', { lat: 59.91, lon: 10.75 })
        expect(near.json.data.establishments.map((e: { navn: string }) => e.navn)).toEqual([
          'Kafé Kvadraturen',
          'Sushi "Bølgen" & Co',
        ])
      })
    } finally {
      await kartverket.close()
    }
  }, 60_000)

  it('stops on Ctrl-C keeping what it found, loads nothing half done, and goes on from there', async () => {
    const dir = dataDir()
    const kartverket = await startFakeKartverketAddresses()
    try {
      expect((await datasets(dir, kartverket, ['sync', 'mattilsynet_smilefjes', '--budget', '1'])).code).toBe(0)
      expect(kartverket.hits('/sok')).toBe(1)
      const controller = new AbortController()
      const watch = setInterval(() => {
        if (kartverket.hits('/sok') >= 3) controller.abort(new Error('interrupted (SIGINT)'))
      }, 2)
      const stopped = await datasets(
        dir,
        kartverket,
        ['sync', 'mattilsynet_adressepunkter'],
        controller.signal,
      ).finally(() => clearInterval(watch))
      expect(stopped.code).toBe(1)
      expect(stopped.stderr).toContain(
        `error: mattilsynet_adressepunkter: stopped (interrupted (SIGINT)): what this run asked is kept in ${join(dir, ADDRESS_POINTS_FILE)}, and the next sync loads it and goes on from there`,
      )
      const kept = readFileSync(join(dir, ADDRESS_POINTS_FILE), 'utf8').trim().split('\n').length - 1
      expect(kept).toBeGreaterThanOrEqual(2)
      expect(kept).toBeLessThan(6)
      // The version loaded before (one address) still serves.
      const list = await datasets(dir, kartverket, ['list'])
      expect(list.stdout).toMatch(/^mattilsynet_adressepunkter\s+yes\s+1\s/m)

      const before = kartverket.hits('/sok')
      const resumed = await datasets(dir, kartverket, ['sync', 'mattilsynet_adressepunkter'])
      expect(resumed.code, resumed.stderr).toBe(0)
      expect(resumed.stdout).toContain(
        `6 distinct addresses, ${kept} known from earlier runs; asked Kartverket address API for ${6 - kept}: `,
      )
      expect(kartverket.hits('/sok') - before).toBe(6 - kept)
      expect(resumed.stdout).toMatch(/^mattilsynet_adressepunkter: loaded 6 rows/m)
    } finally {
      await kartverket.close()
    }
  }, 60_000)

  it('refuses to place addresses before the smilefjes file is loaded, naming the command that loads it', async () => {
    const dir = dataDir()
    const kartverket = await startFakeKartverketAddresses()
    try {
      const run = await datasets(dir, kartverket, ['sync', 'mattilsynet_adressepunkter'])
      expect(run.code).toBe(1)
      expect(run.stderr).toContain(
        'error: mattilsynet_adressepunkter: mattilsynet_adressepunkter is made from mattilsynet_smilefjes, which is not loaded: load it first with npx allmenning datasets sync mattilsynet_smilefjes',
      )
      expect(kartverket.hits()).toBe(0)
      expect(existsSync(join(dir, ADDRESS_POINTS_FILE))).toBe(false)
      const list = await datasets(dir, kartverket, ['list'])
      expect(list.stdout).toMatch(
        new RegExp(
          `^mattilsynet_adressepunkter\\s+no\\s+-\\s+-\\s+made from mattilsynet_smilefjes by asking ${kartverket.baseUrl}: npx allmenning datasets sync mattilsynet_adressepunkter$`,
          'm',
        ),
      )
    } finally {
      await kartverket.close()
    }
  }, 60_000)
})
