import { readFileSync } from 'node:fs'
import { fakeReply, startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'

/** The key the tests' fake accepts. */
export const FAKE_DIMU_KEY = 'test-dimu-key-0123456789abcdef'

type Doc = Record<string, unknown>

/**
 * Museum objects written for the tests as DigitaltMuseum's Solr search sends them: stored fields
 * with dotted names (`identifier.owner`, `artifact.ingress.title`, production years as numbers,
 * licences as a list, `artifact.coordinate` as "lat, lon" with twenty decimals), the shape of a
 * real capture (JakobVinje/drammen-kulturminner `test/fixtures/dimu-search.json`, 2026-06-11).
 * The objects and museums are our own.
 */
export const dimuDocs: Doc[] = JSON.parse(
  readFileSync(new URL('./fixtures/dimu-docs.json', import.meta.url), 'utf8'),
) as Doc[]

/**
 * DigitaltMuseum's list of Norwegian owners as XML: an `<owner>` with `<identifier>`, `<name>`
 * and, for a collection, `<parent>`, as the API's documentation (nasjonalmuseet/DiMu-API-documentation)
 * describes it. The exact wrapper element and the other elements are not seen; written for the tests.
 */
export const dimuOwnersXml = readFileSync(new URL('./fixtures/owners-no.xml', import.meta.url), 'utf8')

/** What a fake DigitaltMuseum accepts. */
export interface FakeDimuOptions {
  /** The keys it accepts; {@link FAKE_DIMU_KEY} by default. */
  keys?: readonly string[]
  /** Keys that answer at most 10 rows, as DigitaltMuseum's `demo` key does. */
  limitedKeys?: readonly string[]
}

/** Solr's escaping undone, for matching the fake's documents. */
const unescape = (s: string) => s.replace(/\\(.)/g, '$1')

/** The owner codes of an `fq=identifier.owner:("NF" OR "NMK-B")`, or undefined for none; null when it cannot be read. */
function ownersOf(fq: string | null): string[] | undefined | null {
  if (fq === null) return undefined
  const m = /^identifier\.owner:\((.+)\)$/.exec(fq) ?? /^identifier\.owner:(\S+)$/.exec(fq)
  if (!m) return null
  return m[1]!.split(/\s+OR\s+/).map((code) => code.replace(/^"|"$/g, ''))
}

const refused = (): FakeReply => fakeReply.status(403, 'Forbidden: invalid api.key')

/**
 * The answer of `/api/solr/select` over the given documents: `fq` restricts to owners, `q` is
 * `*` or words matched in the title, maker, place and subjects, `rows` (at most 100) and
 * `start` page. The response header echoes the parameters, the key among them, as the real one
 * does. A missing or unknown key is a 403 (the real refusal not seen).
 *
 * @example
 * dimuSearch(new URL('http://127.0.0.1/api/solr/select?q=*&wt=json&api.key=demo'), dimuDocs, options)
 */
export function dimuSearch(url: URL, docs: Doc[], options: FakeDimuOptions = {}): FakeReply {
  const q = url.searchParams
  const key = q.get('api.key') ?? ''
  const keys = [...(options.keys ?? [FAKE_DIMU_KEY]), ...(options.limitedKeys ?? [])]
  if (!keys.includes(key)) return refused()
  const owners = ownersOf(q.get('fq'))
  if (owners === null)
    return fakeReply.json(
      { responseHeader: { status: 400 }, error: { msg: 'undefined field', code: 400 } },
      { status: 400 },
    )
  const words = unescape(q.get('q') ?? '*')
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '' && w !== '*')
  const text = (d: Doc) =>
    [
      d['artifact.ingress.title'],
      d['artifact.ingress.producer'],
      d['artifact.ingress.production.place'],
      ...((d['artifact.ingress.subjects'] as string[]) ?? []),
    ]
      .join(' ')
      .toLowerCase()
  const matching = docs.filter(
    (d) =>
      (owners === undefined || owners.includes(String(d['identifier.owner']))) &&
      words.every((w) => text(d).includes(w)),
  )
  let rows = Math.min(Number(q.get('rows') ?? 10), 100)
  if ((options.limitedKeys ?? []).includes(key)) rows = Math.min(rows, 10)
  const start = Number(q.get('start') ?? 0)
  const params = Object.fromEntries([...q.entries()])
  const body = {
    responseHeader: {
      zkConnected: true,
      status: 0,
      QTime: 12,
      params: { ...params, 'q.op': 'AND', df: '_text_', qt: 'standard' },
    },
    response: { numFound: matching.length, start, docs: matching.slice(start, start + rows) },
  }
  return fakeReply.json(body, { contentType: 'application/json;charset=utf-8' })
}

/**
 * A local DigitaltMuseum: `/api/solr/select` ({@link dimuSearch}) and `/api/owners` (the owners
 * XML to a known key, 403 otherwise).
 *
 * @example
 * const fake = await startFakeDimu()
 * createGateway({ sources: [kulturarv({ dimuApiKey: FAKE_DIMU_KEY })], upstreams: { dimu: { baseUrl: fake.baseUrl } } })
 */
export async function startFakeDimu(options: FakeDimuOptions = {}, docs: Doc[] = dimuDocs): Promise<FakeUpstream> {
  const keys = [...(options.keys ?? [FAKE_DIMU_KEY]), ...(options.limitedKeys ?? [])]
  return startFakeUpstream({
    '/api/solr/select': (url) => dimuSearch(url, docs, options),
    '/api/owners': (url) =>
      keys.includes(url.searchParams.get('api.key') ?? '')
        ? fakeReply.xml(dimuOwnersXml, { contentType: 'application/xml;charset=UTF-8' })
        : refused(),
  })
}
