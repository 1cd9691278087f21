import { readFileSync, readdirSync } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import {
  fakeReply,
  startFakeUpstream,
  type FakeReply,
  type FakeRoute,
  type FakeUpstream,
} from '@allmenning/core/testing'

/** A unit record exactly as Enhetsregisteret sends it (`/enheter/{orgnr}`, `/underenheter/{orgnr}`). */
export type BrregRecord = { organisasjonsnummer: string; navn: string } & Record<string, unknown>

/** The data a fake Enhetsregisteret serves. Lists are in "relevance score" order: see {@link startFakeBrreg}. */
export interface BrregData {
  enheter: BrregRecord[]
  underenheter: BrregRecord[]
  /** Bodies of `/enheter/{orgnr}/roller`, by organisation number. */
  roller: Record<string, unknown>
  /**
   * Removed entities answered the documented way: `/enheter/{orgnr}` answers 410 with this
   * body. The real service answers a deleted unit with 200 instead: put such a unit, with
   * `respons_klasse: 'SlettetEnhet'` (`'SlettetUnderEnhet'`), in `enheter` (`underenheter`).
   */
  fjernede: BrregRecord[]
}

/** Options of {@link startFakeBrreg}: each given list replaces the fixture list. */
export type FakeBrregOptions = Partial<BrregData> & {
  /**
   * The unit (and the body of its roles, empty groups when left out) to answer for a number the
   * data lacks (`/enheter/{orgnr}`, `/enheter/{orgnr}/roller`), as the offline demo answers any
   * plausible number; undefined keeps the 404. Without it every unknown number is a 404.
   */
  otherNumbers?: (orgnr: string) => { enhet: BrregRecord; roller?: unknown } | undefined
}

/** One request a fake Enhetsregisteret answered. */
export interface FakeBrregCall {
  /** Path below the API root, e.g. `/enheter/976030788/roller`. */
  path: string
  query: Record<string, string>
  accept: string | undefined
}

/** A running fake Enhetsregisteret. */
export interface FakeBrreg {
  /** Like the real `https://data.brreg.no/enhetsregisteret/api`: pass it as `baseUrl`. */
  baseUrl: string
  /** Every request received, as full path with query (also unknown paths). */
  requests: string[]
  /** Every request to a known route, parsed, with its Accept header. */
  calls: FakeBrregCall[]
  /**
   * Answer every known route with this status (a Spring-style error body) until called with
   * `undefined`, or only for the next `times` requests when given. Paths of numbers the fake
   * does not know keep answering 404.
   */
  failWith(status: number | undefined, times?: number): void
  /** The underlying fake, to replace a route for one test. */
  upstream: FakeUpstream
  close(): Promise<void>
}

const PREFIX = '/enhetsregisteret/api'
const MAX_DEPTH = 10_000
const fixtureDir = new URL('./fixtures/', import.meta.url)

const readJson = (name: string): unknown => JSON.parse(readFileSync(new URL(name, fixtureDir), 'utf8'))

/**
 * The recorded-shape fixtures in `fixtures`: fourteen main entities (several named
 * "sesam", a company with branches, a partnership whose partners are companies, a bankrupt
 * one with a bostyrer, a NUF with a Swedish business address, one dissolved by force, one
 * deleted), seven sub-units (one deleted), three role bodies and one entity removed the
 * documented 410 way. A fresh copy on every call.
 *
 * @example
 * const { enheter } = brregFixtures()
 * await startFakeBrreg({ enheter: [...enheter, extraCompany] })
 */
export function brregFixtures(): BrregData {
  const roller: Record<string, unknown> = {}
  const fjernede: BrregRecord[] = []
  for (const file of readdirSync(fixtureDir)) {
    const rolle = /^roller-(\d{9})\.json$/.exec(file)
    if (rolle?.[1]) roller[rolle[1]] = readJson(file)
    if (/^slettet-\d{9}\.json$/.test(file)) fjernede.push(readJson(file) as BrregRecord)
  }
  return {
    enheter: readJson('enheter.json') as BrregRecord[],
    underenheter: readJson('underenheter.json') as BrregRecord[],
    roller,
    fjernede,
  }
}

function checkDigit(firstEight: string): number | undefined {
  const weights = [3, 2, 7, 6, 5, 4, 3, 2]
  let sum = 0
  for (let i = 0; i < 8; i++) sum += Number(firstEight[i]) * (weights[i] ?? 0)
  const remainder = sum % 11
  if (remainder === 1) return undefined
  return remainder === 0 ? 0 : 11 - remainder
}

/**
 * `count` sub-units of `parent`, real-shaped, with valid and distinct organisation numbers
 * (starting at `firstNumber`, default 830000000), to page through.
 *
 * @example
 * await startFakeBrreg({ underenheter: generateUnderenheter('912346021', 237) })
 */
export function generateUnderenheter(parent: string, count: number, firstNumber = 830_000_000): BrregRecord[] {
  const units: BrregRecord[] = []
  for (let base = Math.floor(firstNumber / 10); units.length < count; base++) {
    const digit = checkDigit(String(base))
    if (digit === undefined) continue
    const orgnr = `${base}${digit}`
    const n = units.length + 1
    units.push({
      organisasjonsnummer: orgnr,
      navn: `AVDELING ${String(n).padStart(4, '0')}`,
      organisasjonsform: {
        kode: 'BEDR',
        beskrivelse: 'Underenhet til næringsdrivende og offentlig forvaltning',
        _links: { self: { href: 'https://data.brreg.no/enhetsregisteret/api/organisasjonsformer/BEDR' } },
      },
      registreringsdatoEnhetsregisteret: '2020-01-02',
      registrertIMvaregisteret: false,
      naeringskode1: { kode: '56.101', beskrivelse: 'Drift av restauranter og kafeer' },
      antallAnsatte: n % 40,
      harRegistrertAntallAnsatte: true,
      overordnetEnhet: parent,
      oppstartsdato: '2020-01-01',
      beliggenhetsadresse: {
        land: 'Norge',
        landkode: 'NO',
        postnummer: '0150',
        poststed: 'OSLO',
        adresse: [`Gate ${n}`],
        kommune: 'OSLO',
        kommunenummer: '0301',
      },
      _links: {
        self: { href: `https://data.brreg.no/enhetsregisteret/api/underenheter/${orgnr}` },
        overordnetEnhet: { href: `https://data.brreg.no/enhetsregisteret/api/enheter/${parent}` },
      },
    })
  }
  return units
}

type Kind = 'enhet' | 'underenhet' | 'rolle'

// The versions the real service answers for each resource.
const supportedMediaTypes: Record<Kind, string> = {
  enhet: 'application/vnd.brreg.enhetsregisteret.enhet.v2+json',
  underenhet: 'application/vnd.brreg.enhetsregisteret.underenhet.v2+json',
  rolle: 'application/vnd.brreg.enhetsregisteret.rolle.v1+json',
}

/** The content type to answer with, or undefined for 406 (a pinned version we do not serve). */
function negotiate(kind: Kind, accept: string | undefined): string | undefined {
  if (!accept) return 'application/json'
  for (const range of accept.split(',')) {
    const type = range.split(';')[0]?.trim().toLowerCase() ?? ''
    if (type === supportedMediaTypes[kind]) return `${type};charset=UTF-8`
    if (type === 'application/json' || type === '*/*' || type === 'application/*') return 'application/json'
  }
  return undefined
}

// Brønnøysund writes its content types without a space before the charset, or with none at all.
const json = (status: number, body: unknown, contentType = 'application/json'): FakeReply =>
  fakeReply.json(body, { status, contentType })

function badRequest(feilmelding: string, parametere: string[], feilaktigVerdi: string): FakeReply {
  return json(400, {
    status: 400,
    feilmelding: 'Ugyldig forespørsel',
    valideringsfeil: [{ feilmelding, parametere, feilaktigVerdi }],
  })
}

/** Whether the register's own body says the unit is deleted (the 200 it really sends for one). */
function isDeleted(unit: BrregRecord): boolean {
  return typeof unit['respons_klasse'] === 'string' && unit['respons_klasse'].startsWith('Slettet')
}

/** The registered headcount; a unit that shows none counts as 0 (Brønnøysund hides counts below 5). */
function employees(unit: BrregRecord): number {
  return typeof unit['antallAnsatte'] === 'number' ? unit['antallAnsatte'] : 0
}

function codeOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null && typeof (value as { kode?: unknown }).kode === 'string'
    ? (value as { kode: string }).kode
    : undefined
}

/**
 * The search filters `finn_selskaper` sends: `kommunenummer` (business or location address),
 * `naeringskode` and `organisasjonsform` (comma lists), `fraAntallAnsatte`/`tilAntallAnsatte`,
 * `konkurs`. An industry code matches itself and the longer codes it starts (`56` finds
 * `56.101`): a third party reports such prefix matching, not verified against the service.
 */
function filterUnits(params: URLSearchParams): (unit: BrregRecord) => boolean {
  const list = (name: string) =>
    params
      .get(name)
      ?.split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '')
  const kommune = params.get('kommunenummer')
  const codes = list('naeringskode')
  const forms = list('organisasjonsform')
  const from = params.get('fraAntallAnsatte')
  const to = params.get('tilAntallAnsatte')
  const konkurs = params.get('konkurs')
  return (unit) => {
    const address = (unit['forretningsadresse'] ?? unit['beliggenhetsadresse']) as
      | { kommunenummer?: string }
      | undefined
    if (kommune !== null && address?.kommunenummer !== kommune) return false
    if (codes) {
      const own = [unit['naeringskode1'], unit['naeringskode2'], unit['naeringskode3']]
        .map(codeOf)
        .filter((c): c is string => c !== undefined)
      if (!codes.some((code) => own.some((kode) => kode.startsWith(code)))) return false
    }
    if (forms && !forms.includes(codeOf(unit['organisasjonsform']) ?? '')) return false
    if (from !== null && employees(unit) < Number(from)) return false
    if (to !== null && employees(unit) > Number(to)) return false
    if (konkurs !== null && Boolean(unit['konkurs']) !== (konkurs === 'true')) return false
    return true
  }
}

function normalize(text: string): string {
  return text.toLocaleLowerCase('nb').replace(/\s+/g, ' ').trim()
}

/**
 * Starts a fake Enhetsregisteret on 127.0.0.1 that answers like the real open API
 * (upstreams.md §1):
 * - `GET /enheter` and `GET /underenheter`: search by `navn` (every word a substring of the
 *   name, case-insensitive), `overordnetEnhet`, `organisasjonsnummer` (comma list), the
 *   filters of {@link filterUnits}, `sort=antallAnsatte,DESC` (else list order), with
 *   Spring HATEOAS paging: `page` (0-based, default 0), `size` (default 20), `_links`
 *   first/prev/self/next/last, `page.{size,totalElements,totalPages,number}`, no `_embedded`
 *   key when a page is empty, 400 `{status, feilmelding, valideringsfeil}` when
 *   page × size > 10 000 or `page`/`size` are not numbers. Hits come in list order, which
 *   plays the relevance score.
 * - `GET /enheter/{orgnr}`, `GET /enheter/{orgnr}/roller`, `GET /underenheter/{orgnr}`.
 * - A deleted unit (`respons_klasse` `SlettetEnhet`/`SlettetUnderEnhet`) as the real service
 *   answers it: 200 with its short body, its roles 404 with an empty body, and it is not among
 *   search hits. Entities in `fjernede` answer 410 with their body, as documented.
 * - Unknown organisation numbers: 404 with an empty body.
 * - Accept: `application/json`, or the pinned v2 (enhet, underenhet) / v1 (rolle) vendor
 *   types, echoed as the content type; any other pinned version is 406.
 *
 * @example
 * const brreg = await startFakeBrreg()
 * createGateway({ sources: [firmafakta()], upstreams: { brreg: { baseUrl: fake.baseUrl } } })
 * brreg.failWith(500, 1) // the next call fails
 * await brreg.close()
 */
export async function startFakeBrreg(options: FakeBrregOptions = {}): Promise<FakeBrreg> {
  const fixtures = brregFixtures()
  const data: BrregData = {
    enheter: options.enheter ?? fixtures.enheter,
    underenheter: options.underenheter ?? fixtures.underenheter,
    roller: options.roller ?? fixtures.roller,
    fjernede: options.fjernede ?? fixtures.fjernede,
  }
  const calls: FakeBrregCall[] = []
  let forced: { status: number; remaining: number | undefined } | undefined
  let fake: FakeUpstream | undefined

  function serve(kind: Kind, answer: (url: URL, contentType: string) => FakeReply): FakeRoute {
    return (url: URL, req: IncomingMessage) => {
      const path = url.pathname.slice(PREFIX.length)
      const accept = req.headers.accept
      calls.push({ path, query: Object.fromEntries(url.searchParams), accept })
      if (forced) {
        const { status } = forced
        if (forced.remaining !== undefined && --forced.remaining <= 0) forced = undefined
        return json(status, {
          timestamp: new Date().toISOString(),
          status,
          error: status >= 500 ? 'Internal Server Error' : 'Error',
          path: url.pathname,
        })
      }
      const contentType = negotiate(kind, accept)
      if (!contentType) return { status: 406, headers: {}, body: '' }
      return answer(url, contentType)
    }
  }

  function search(list: () => BrregRecord[], embeddedKey: string): (url: URL, contentType: string) => FakeReply {
    return (url, contentType) => {
      const params = url.searchParams
      const pageText = params.get('page') ?? '0'
      const sizeText = params.get('size') ?? '20'
      if (!/^\d+$/.test(pageText)) return badRequest('Ugyldig verdi for page', ['page'], pageText)
      if (!/^\d+$/.test(sizeText) || Number(sizeText) < 1)
        return badRequest('Ugyldig verdi for size', ['size'], sizeText)
      const page = Number(pageText)
      const size = Number(sizeText)
      if (page * size > MAX_DEPTH) {
        return badRequest(
          `Det er ikke mulig å hente ut mer enn ${MAX_DEPTH} elementer (page * size)`,
          ['page', 'size'],
          `page=${page}, size=${size}`,
        )
      }
      const words = normalize(params.get('navn') ?? '')
        .split(' ')
        .filter((word) => word !== '')
      const parent = params.get('overordnetEnhet')
      const numbers = params
        .get('organisasjonsnummer')
        ?.split(',')
        .map((n) => n.trim())
      for (const name of ['fraAntallAnsatte', 'tilAntallAnsatte']) {
        const value = params.get(name)
        if (value !== null && !/^\d+$/.test(value)) return badRequest(`Ugyldig verdi for ${name}`, [name], value)
      }
      const matchesFilters = filterUnits(params)
      const hits = list().filter(
        (unit) =>
          !isDeleted(unit) &&
          words.every((word) => normalize(unit.navn).includes(word)) &&
          (parent === null || unit['overordnetEnhet'] === parent) &&
          (numbers === undefined || numbers.includes(unit.organisasjonsnummer)) &&
          matchesFilters(unit),
      )
      if (params.get('sort') === 'antallAnsatte,DESC') hits.sort((a, b) => employees(b) - employees(a))
      const totalPages = Math.ceil(hits.length / size)
      const content = hits.slice(page * size, page * size + size)
      const link = (target: number) => {
        const query = new URLSearchParams([...params].filter(([key]) => key !== 'page' && key !== 'size'))
        query.set('page', String(target))
        query.set('size', String(size))
        return { href: `${fake?.baseUrl ?? ''}${url.pathname.slice(PREFIX.length)}?${query}` }
      }
      const hasPrevious = page > 0
      const hasNext = page + 1 < totalPages
      const links: Record<string, { href: string }> = {}
      if (hasPrevious || hasNext) links['first'] = link(0)
      if (hasPrevious) links['prev'] = link(page - 1)
      links['self'] = link(page)
      if (hasNext) links['next'] = link(page + 1)
      if (hasPrevious || hasNext) links['last'] = link(Math.max(totalPages - 1, 0))
      const body = {
        ...(content.length > 0 ? { _embedded: { [embeddedKey]: content } } : {}),
        _links: links,
        page: { size, totalElements: hits.length, totalPages, number: page },
      }
      return json(200, body, contentType)
    }
  }

  const routes: Record<string, FakeRoute> = {
    '/enheter': serve(
      'enhet',
      search(() => data.enheter, 'enheter'),
    ),
    '/underenheter': serve(
      'underenhet',
      search(() => data.underenheter, 'underenheter'),
    ),
  }
  for (const unit of data.enheter) {
    const orgnr = unit.organisasjonsnummer
    routes[`/enheter/${orgnr}`] = serve('enhet', (_url, contentType) => json(200, unit, contentType))
    if (isDeleted(unit)) {
      routes[`/enheter/${orgnr}/roller`] = serve('rolle', () => ({ status: 404, headers: {}, body: '' }))
      continue
    }
    routes[`/enheter/${orgnr}/roller`] = serve('rolle', (_url, contentType) =>
      json(
        200,
        data.roller[orgnr] ?? {
          rollegrupper: [],
          _links: {
            self: { href: `https://data.brreg.no/enhetsregisteret/api/enheter/${orgnr}/roller` },
            enhet: { href: `https://data.brreg.no/enhetsregisteret/api/enheter/${orgnr}` },
          },
        },
        contentType,
      ),
    )
  }
  for (const removed of data.fjernede) {
    routes[`/enheter/${removed.organisasjonsnummer}`] = serve('enhet', () => json(410, removed))
    routes[`/enheter/${removed.organisasjonsnummer}/roller`] = serve('rolle', () => json(410, removed))
  }
  for (const unit of data.underenheter) {
    routes[`/underenheter/${unit.organisasjonsnummer}`] = serve('underenhet', (_url, contentType) =>
      json(200, unit, contentType),
    )
  }

  const other = options.otherNumbers
  if (other) {
    const emptyRoles = (orgnr: string) => ({
      rollegrupper: [],
      _links: {
        self: { href: `https://data.brreg.no/enhetsregisteret/api/enheter/${orgnr}/roller` },
        enhet: { href: `https://data.brreg.no/enhetsregisteret/api/enheter/${orgnr}` },
      },
    })
    const orgnrOf = (url: URL) => url.pathname.slice(PREFIX.length).split('/')[2] ?? ''
    routes['/enheter/{orgnr}'] = serve('enhet', (url, contentType) => {
      const found = other(orgnrOf(url))
      return found ? json(200, found.enhet, contentType) : { status: 404, headers: {}, body: '' }
    })
    routes['/enheter/{orgnr}/roller'] = serve('rolle', (url, contentType) => {
      const orgnr = orgnrOf(url)
      const found = other(orgnr)
      return found ? json(200, found.roller ?? emptyRoles(orgnr), contentType) : { status: 404, headers: {}, body: '' }
    })
  }

  fake = await startFakeUpstream(routes, { prefix: PREFIX })
  const upstream = fake
  return {
    baseUrl: upstream.baseUrl,
    requests: upstream.requests,
    calls,
    failWith(status, times) {
      forced = status === undefined ? undefined : { status, remaining: times }
    },
    upstream,
    close: () => upstream.close(),
  }
}
