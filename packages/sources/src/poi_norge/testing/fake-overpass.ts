import { readFileSync } from 'node:fs'
import { distanceKm } from '../../shared/wgs84-point.js'
import { startFakeUpstream, type FakeReply, type FakeRoute, type FakeUpstream } from '@allmenning/core/testing'

/** An Overpass answer around Oslo sentrum, in Overpass's own JSON layout (7-decimal coordinates, ways with `center`). */
export const overpassFixture = readFileSync(new URL('./fixtures/elements-oslo-sentrum.json', import.meta.url), 'utf8')

/** An element as Overpass writes it. */
export type Element = {
  type: string
  id: number
  lat?: number
  lon?: number
  center?: { lat: number; lon: number }
  tags?: Record<string, string>
}
const fixture = JSON.parse(overpassFixture) as { elements: Element[] }

/** Overpass answers errors as an HTML page. */
export const overpassHtmlError = (status: number, message: string): FakeReply => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html><head><title>OSM3S Response</title></head>\n<body>\n<p><strong style="color:#FF0000">Error</strong>: ${message}</p>\n</body>\n</html>\n`,
})

/** The JSON head Overpass writes before its elements, and its layout of the list. */
export function overpassAnswer(elements: unknown[], remark?: string): FakeReply {
  const head = `{\n  "version": 0.6,\n  "generator": "Overpass API 0.7.62.1 084b4234",\n  "osm3s": {\n    "timestamp_osm_base": "2026-09-23T09:40:12Z",\n    "copyright": "The data included in this document is from www.openstreetmap.org. The data is made available under ODbL."\n  },\n  "elements": [\n\n`
  const list = elements.map((e) => JSON.stringify(e, null, 2)).join(',\n')
  const tail = remark === undefined ? '\n\n  ]\n}\n' : `\n\n  ],\n"remark": ${JSON.stringify(remark)}\n}\n`
  return { status: 200, headers: { 'content-type': 'application/json' }, body: head + list + tail }
}

const QUERY =
  /^\[out:json\]\[timeout:(\d+)\];nwr\(around:(\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)\)(.*);out center qt (\d+);$/

/** The filter forms the source sends: one key (with a value), a key pattern with a value pattern, optionally requiring a name. */
function matcher(filter: string): ((tags: Record<string, string>) => boolean) | undefined {
  const named = filter.endsWith('["name"]')
  const core = named ? filter.slice(0, -'["name"]'.length) : filter
  let test: ((tags: Record<string, string>) => boolean) | undefined
  let m: RegExpExecArray | null
  if ((m = /^\["([a-z_]+)"="([a-z0-9_]+)"\]$/.exec(core))) {
    const [, key, value] = m
    test = (tags) => tags[key!] === value
  } else if ((m = /^\["([a-z_]+)"\]$/.exec(core))) {
    const [, key] = m
    test = (tags) => tags[key!] !== undefined
  } else if ((m = /^\[~"([^"]+)"~"([^"]+)"\]$/.exec(core))) {
    const keys = new RegExp(m[1]!)
    const values = new RegExp(m[2]!)
    test = (tags) => Object.entries(tags).some(([k, val]) => keys.test(k) && values.test(val))
  }
  if (!test) return undefined
  const t = test
  return named ? (tags) => t(tags) && tags.name !== undefined : t
}

/**
 * How a fake answers `GET /interpreter?data=...` over `recorded` elements: it understands the
 * queries the source sends (around a point, by key, key and value, or key and value patterns,
 * named or not), applies them to the elements, and answers a parse error page to anything else,
 * as Overpass does.
 *
 * @example
 * const elements = [{ type: 'node', id: 1, lat: 59.91, lon: 10.75, tags: { amenity: 'cafe', name: 'Kafé' } }]
 * const fake = await startFakeUpstream({ '/interpreter': overpassRoute(elements) }, '/api')
 */
export function overpassRoute(recorded: readonly Element[]): FakeRoute {
  return (url) => {
    const data = url.searchParams.get('data') ?? ''
    const query = QUERY.exec(data)
    const test = query ? matcher(query[5]!) : undefined
    if (!query || !test) return overpassHtmlError(400, 'line 1: parse error: unexpected input')
    const [, , radius, lat, lon, , max] = query
    const center = { lat: Number(lat), lon: Number(lon) }
    const elements = recorded.filter((e) => {
      const at = e.center ?? { lat: e.lat!, lon: e.lon! }
      return distanceKm(center, at) * 1000 <= Number(radius) && test(e.tags ?? {})
    })
    return overpassAnswer(elements.slice(0, Number(max)))
  }
}

/** The fake's answers over the Oslo sentrum fixture (see {@link overpassRoute}). */
export const serveOverpass: FakeRoute = overpassRoute(fixture.elements)

/**
 * A local Overpass API under `/api`.
 *
 * @example
 * const fake = await startFakeOverpass()
 * createGateway({ sources: [poiNorge()], upstreams: { overpass: { baseUrl: fake.baseUrl } } })
 */
export async function startFakeOverpass(): Promise<FakeUpstream> {
  return startFakeUpstream({ '/interpreter': serveOverpass }, '/api')
}
