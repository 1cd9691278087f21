import { readFileSync } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'

/** The client id the fake accepts besides `demo` (the offline demo's id). */
export const FAKE_FROST_CLIENT_ID = 'test-frost-0c5e-4d1f-9a7b-client-id'

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')

/**
 * `/sources/v0.jsonld?types=SensorSystem` as Frost writes it (the shape of a real capture of a
 * name search for Bergen: JSON-LD envelope, `queryTime` a number, `wmoId` and `wigosId` only on
 * some, `geometry.nearest`), with stations of our own in Oslo (one closed, one without a
 * position), Akershus and the largest cities.
 */
export const frostSourcesFixture = fixture('sources-sensorsystem.json')

/**
 * The latest observations of the stations (`referencetime=latest`), shaped as a real
 * ObservationResponse (`sourceId` "SN…:0", `exposureCategory` a string, levels on some), recorded at
 * {@link FROST_RECORDED_TIME}; the fake moves the times to now.
 */
export const frostLatestFixture = fixture('observations-latest.json')

/** When the observation fixture was written; the fake moves every time in it by the whole hours since. */
export const FROST_RECORDED_TIME = '2026-11-20T10:00:00.000Z'

interface Envelope {
  data: Record<string, unknown>[]
  [field: string]: unknown
}
interface ObservationItem {
  sourceId: string
  referenceTime: string
  observations: { elementId: string }[]
}

const HOUR_MS = 3_600_000

/**
 * A recorded time moved to the current hour, as on a live service.
 *
 * @example
 * frostTime('2026-11-20T09:50:00.000Z', Date.parse('2026-11-28T10:20:00Z')) // '2026-11-28T09:50:00.000Z'
 */
export function frostTime(recorded: string, now: number = Date.now()): string {
  const shift = Math.floor(now / HOUR_MS) * HOUR_MS - Date.parse(FROST_RECORDED_TIME)
  return new Date(Date.parse(recorded) + shift).toISOString()
}

// Frost's answers: JSON (the content type was not seen in a capture; assumed), errors as JSON sent as text/plain (seen in a probe log).
const json = (body: string): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'application/json;charset=UTF-8' },
  body,
})

/**
 * Frost's ErrorResponse, as it answers a missing or wrong client id (401), a bad parameter (400),
 * or a query that matches nothing (404 "No data found").
 *
 * @example
 * frostError(404, 'Not found', 'No data found', 'https://frost.met.no/sources/v0.jsonld?ids=SN1')
 */
export function frostError(code: number, message: string, reason: string, link: string): FakeReply {
  const body = {
    '@context': 'https://frost.met.no/schema',
    '@type': 'ErrorResponse',
    apiVersion: 'v0',
    license: 'https://creativecommons.org/licenses/by/3.0/no/',
    createdAt: `${new Date().toISOString().slice(0, 19)}Z`,
    queryTime: 0.004,
    currentLink: link,
    error: { code, message, reason, help: '' },
  }
  return { status: code, headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: JSON.stringify(body, null, 2) }
}

/** The client id of an HTTP Basic header (`id:` base64), or undefined. */
function clientIdOf(req: IncomingMessage): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/.exec(req.headers.authorization ?? '')
  if (!match) return undefined
  const [user, password] = Buffer.from(match[1]!, 'base64').toString('utf8').split(':')
  return password === '' || password === undefined ? user : undefined
}

const link = (url: URL) => `https://frost.met.no${url.pathname}${url.search}`

function envelope(text: string, url: URL, data: unknown[]): string {
  const parsed = JSON.parse(text) as Envelope
  return JSON.stringify(
    {
      ...parsed,
      createdAt: `${new Date().toISOString().slice(0, 19)}Z`,
      currentItemCount: data.length,
      itemsPerPage: data.length,
      totalItemCount: data.length,
      currentLink: link(url),
      data,
    },
    null,
    2,
  )
}

/** A Frost name filter with `*` wildcards as a case-insensitive pattern over the whole name. */
const namePattern = (filter: string) =>
  new RegExp(
    `^${filter
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    'i',
  )

/** What a fake Frost accepts and answers. */
export interface FakeFrostOptions {
  /** The client ids it accepts; {@link FAKE_FROST_CLIENT_ID} and `demo` by default. */
  clientIds?: readonly string[]
  /**
   * For a station in the register without recorded observations: the recorded station whose
   * values it answers (the demo's fallback, so any station in use has a latest value). None by default.
   */
  fallbackStation?: string
}

/**
 * A local Frost: `/sources/v0.jsonld` (the register, `ids=`, `name=` with `*` wildcards) and
 * `/observations/v0.jsonld` with `referencetime=latest` (the recorded values of the asked
 * stations and elements, moved to the current hour). A missing or wrong client id is a 401
 * ErrorResponse, nothing found a 404 one, as Frost answers.
 *
 * @example
 * const fake = await startFakeFrost()
 * createGateway({ sources: [frost({ clientId: FAKE_FROST_CLIENT_ID })], upstreams: { frost: { baseUrl: fake.baseUrl } } })
 */
export async function startFakeFrost(options: FakeFrostOptions = {}): Promise<FakeUpstream> {
  const accepted = new Set(options.clientIds ?? [FAKE_FROST_CLIENT_ID, 'demo'])
  const register = JSON.parse(frostSourcesFixture) as Envelope
  const latest = JSON.parse(frostLatestFixture) as { data: ObservationItem[] }
  const refused = (url: URL) =>
    frostError(
      401,
      'Unauthorized',
      'Missing or invalid credentials: see https://frost.met.no/auth/requestCredentials.html',
      link(url),
    )

  return startFakeUpstream({
    '/sources/v0.jsonld': (url, req) => {
      if (!accepted.has(clientIdOf(req) ?? '')) return refused(url)
      let stations = register.data
      const types = url.searchParams.get('types')
      if (types && !types.split(',').includes('SensorSystem')) stations = []
      const ids = url.searchParams.get('ids')
      if (ids) {
        const wanted = new Set(ids.split(',').map((id) => id.trim().toUpperCase()))
        stations = stations.filter((s) => wanted.has(String(s['id'])))
      }
      const name = url.searchParams.get('name')
      if (name) stations = stations.filter((s) => namePattern(name).test(String(s['name'] ?? '')))
      if (stations.length === 0) return frostError(404, 'Not found', 'No data found', link(url))
      return json(envelope(frostSourcesFixture, url, stations))
    },
    '/observations/v0.jsonld': (url, req) => {
      if (!accepted.has(clientIdOf(req) ?? '')) return refused(url)
      const sources = url.searchParams.get('sources')
      const elements = url.searchParams.get('elements')
      const referencetime = url.searchParams.get('referencetime')
      if (!sources || !elements || !referencetime) {
        return frostError(
          400,
          'Bad Request',
          'Missing parameter: sources, referencetime and elements are required',
          link(url),
        )
      }
      if (referencetime !== 'latest')
        return frostError(400, 'Bad Request', 'This fake plays referencetime=latest only', link(url))
      const wanted = new Set(elements.split(','))
      const now = Date.now()
      const data: ObservationItem[] = []
      for (const id of sources.split(',')) {
        let items = latest.data.filter((item) => item.sourceId.split(':')[0] === id)
        const known = register.data.some((s) => s['id'] === id)
        if (items.length === 0 && known && options.fallbackStation) {
          items = latest.data
            .filter((item) => item.sourceId.split(':')[0] === options.fallbackStation)
            .map((item) => ({ ...item, sourceId: `${id}:0` }))
        }
        for (const item of items) {
          const observations = item.observations.filter((o) => wanted.has(o.elementId))
          if (observations.length > 0)
            data.push({ ...item, referenceTime: frostTime(item.referenceTime, now), observations })
        }
      }
      if (data.length === 0) return frostError(404, 'Not found', 'No data found', link(url))
      return json(envelope(frostLatestFixture, url, data))
    },
  })
}
