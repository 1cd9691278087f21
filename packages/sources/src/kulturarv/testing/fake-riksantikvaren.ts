import { readFileSync } from 'node:fs'
import { fakeReply, startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'

interface Feature {
  type: 'Feature'
  id: string
  geometry: { type: string; coordinates: unknown } | null
  properties: Record<string, string | null>
}

/**
 * Heritage sites written for the tests in the shape of Riksantikvaren's OGC API features: a
 * GeoJSON Feature per monument, `properties` in Askeladden's Norwegian names (navn,
 * informasjon, art, kategori, kommune, vernestatus, datering, linkKulturminnesok), points and a
 * polygon, one feature without geometry. The collection envelope (`numberMatched`,
 * `numberReturned`, `links`, `timeStamp`) follows OGC API Features; no real capture of this
 * collection's items was found, so the property names are those of Riksantikvaren's API
 * description and the Askeladden product specification, not seen on the wire. The sites are
 * our own: Oslo's museums (a museum as several buildings sharing one locality), churches, a
 * grave mound, and one site in Bergen.
 */
export const heritageFeatures: Feature[] = (
  JSON.parse(readFileSync(new URL('./fixtures/kulturminner.json', import.meta.url), 'utf8')) as { features: Feature[] }
).features

const KNOWN_PARAMETERS = new Set([
  'f',
  'limit',
  'offset',
  'bbox',
  'bbox-crs',
  'crs',
  'filter',
  'filter-lang',
  'filter-crs',
  'datetime',
])
const QUERYABLES = new Set([
  'navn',
  'informasjon',
  'art',
  'kategori',
  'kommune',
  'kommunenummer',
  'fylke',
  'vernestatus',
  'datering',
  'lokalitetsId',
  'kulturminneId',
])

/** An OGC API exception, as the service answers a parameter it does not accept (its exact wording not seen). */
const exception = (description: string): FakeReply =>
  fakeReply.json(
    { code: 'InvalidParameterValue', description },
    { status: 400, contentType: 'application/problem+json; charset=utf-8' },
  )

/** Splits at a keyword outside quotes and parentheses. */
function splitTop(text: string, keyword: 'AND' | 'OR'): string[] {
  const parts: string[] = []
  let depth = 0
  let quoted = false
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === "'") quoted = !quoted
    else if (!quoted && c === '(') depth++
    else if (!quoted && c === ')') depth--
    else if (!quoted && depth === 0 && text.startsWith(` ${keyword} `, i)) {
      parts.push(text.slice(start, i))
      start = i + keyword.length + 2
      i = start - 1
    }
  }
  parts.push(text.slice(start))
  return parts.map((p) => p.trim())
}

const unquote = (s: string) => s.replaceAll("''", "'")
const likeToRegex = (pattern: string) =>
  new RegExp(
    `^${unquote(pattern).replace(/\\([\\%_])|([%_])|([.*+?^${}()|[\]\\])/g, (_m, esc, wild, special) => (esc ? `\\${esc}` : wild === '%' ? '.*' : wild === '_' ? '.' : `\\${special}`))}$`,
    'is',
  )

type Predicate = (p: Record<string, string | null>) => boolean

/**
 * The part of CQL2 text this fake understands: comparisons `prop='text'`, `CASEI(prop) LIKE
 * CASEI('%text%')`, joined by AND and OR with parentheses. Anything else, or a property the
 * collection does not have, is an error, as the real service is strict about its parameters.
 */
function parseCql(text: string): Predicate | string {
  let t = text.trim()
  while (
    t.startsWith('(') &&
    t.endsWith(')') &&
    splitTop(t.slice(1, -1), 'AND').length >= 1 &&
    balanced(t.slice(1, -1))
  )
    t = t.slice(1, -1).trim()
  const ands = splitTop(t, 'AND')
  if (ands.length > 1) {
    const parts = ands.map(parseCql)
    const bad = parts.find((p) => typeof p === 'string')
    return bad ?? ((p) => (parts as Predicate[]).every((f) => f(p)))
  }
  const ors = splitTop(t, 'OR')
  if (ors.length > 1) {
    const parts = ors.map(parseCql)
    const bad = parts.find((p) => typeof p === 'string')
    return bad ?? ((p) => (parts as Predicate[]).some((f) => f(p)))
  }
  const like = /^CASEI\((\w+)\) LIKE CASEI\('((?:[^']|'')*)'\)$/.exec(t)
  const equals = /^(\w+)\s*=\s*'((?:[^']|'')*)'$/.exec(t)
  const atom = like ?? equals
  if (!atom) return `could not parse the filter expression near "${t.slice(0, 40)}"`
  const property = atom[1]!
  if (!QUERYABLES.has(property)) return `'${property}' is not a queryable of the collection`
  if (like) {
    const regex = likeToRegex(atom[2]!)
    return (p) => regex.test(p[property] ?? '')
  }
  const value = unquote(atom[2]!)
  return (p) => p[property] === value
}

function balanced(text: string): boolean {
  let depth = 0
  let quoted = false
  for (const c of text) {
    if (c === "'") quoted = !quoted
    else if (!quoted && c === '(') depth++
    else if (!quoted && c === ')' && --depth < 0) return false
  }
  return depth === 0
}

function pointOf(feature: Feature): [number, number] | null {
  let c: unknown = feature.geometry?.coordinates
  while (Array.isArray(c) && Array.isArray(c[0])) c = c[0]
  return Array.isArray(c) && typeof c[0] === 'number' ? [c[0], c[1] as number] : null
}

/**
 * The answer of `/collections/kulturminner/items` over the given features: the filter, the
 * bbox (a feature counts when its first position is inside), then `offset` and `limit`
 * (default 10, at most 1000, as documented), with `numberMatched` and a `next` link when
 * more remain. A parameter it does not know, a limit above 1000, a malformed bbox or filter is
 * a 400 exception.
 *
 * @example
 * heritageItems(new URL('http://127.0.0.1/collections/kulturminner/items?limit=5'), heritageFeatures)
 */
export function heritageItems(url: URL, features: Feature[]): FakeReply {
  const q = url.searchParams
  for (const name of q.keys()) if (!KNOWN_PARAMETERS.has(name)) return exception(`Unknown query parameter: ${name}`)
  const limit = Number(q.get('limit') ?? 10)
  const offset = Number(q.get('offset') ?? 0)
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    return exception('limit must be an integer between 1 and 1000')
  if (!Number.isInteger(offset) || offset < 0) return exception('offset must be a non-negative integer')
  let matching = features
  const bboxText = q.get('bbox')
  if (bboxText !== null) {
    const box = bboxText.split(',').map(Number)
    if (box.length !== 4 || box.some((n) => !Number.isFinite(n)))
      return exception('bbox must be four numbers: minLon,minLat,maxLon,maxLat')
    const [w, s, e, n] = box as [number, number, number, number]
    matching = matching.filter((f) => {
      const p = pointOf(f)
      return p !== null && p[0] >= w && p[0] <= e && p[1] >= s && p[1] <= n
    })
  }
  const filter = q.get('filter')
  if (filter !== null) {
    if ((q.get('filter-lang') ?? 'cql2-text') !== 'cql2-text') return exception('filter-lang must be cql2-text')
    const predicate = parseCql(filter)
    if (typeof predicate === 'string') return exception(predicate)
    matching = matching.filter((f) => predicate(f.properties))
  }
  const page = matching.slice(offset, offset + limit)
  const self = `${url.origin}${url.pathname}${url.search}`
  const links = [{ rel: 'self', type: 'application/geo+json', title: 'This document', href: self }]
  if (offset + limit < matching.length) {
    const next = new URL(self)
    next.searchParams.set('offset', String(offset + limit))
    links.push({ rel: 'next', type: 'application/geo+json', title: 'Next page', href: next.href })
  }
  const body = {
    type: 'FeatureCollection',
    numberMatched: matching.length,
    numberReturned: page.length,
    timeStamp: '2026-09-01T08:00:00Z',
    links,
    features: page,
  }
  return fakeReply.json(body, { contentType: 'application/geo+json; charset=utf-8' })
}

/**
 * A local Riksantikvaren OGC API answering `/collections/kulturminner/items` from the given
 * features ({@link heritageFeatures} by default) and 404 for other collections.
 *
 * @example
 * const fake = await startFakeRiksantikvaren()
 * createGateway({ sources: [kulturarv()], upstreams: { riksantikvaren: { baseUrl: fake.baseUrl } } })
 */
export async function startFakeRiksantikvaren(features: Feature[] = heritageFeatures): Promise<FakeUpstream> {
  return startFakeUpstream({
    '/collections/kulturminner/items': (url) => heritageItems(url, features),
    '/collections/{collection}/items': (_url, _req, params) =>
      fakeReply.json({ code: 'NotFound', description: `Collection ${params.collection} not found` }, { status: 404 }),
  })
}
