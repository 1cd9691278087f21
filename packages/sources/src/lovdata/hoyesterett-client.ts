/**
 * Everything that knows how domstol.no is built lives in this module; nothing else reads its
 * pages. domstol.no has no documented API for decisions, so the client reads two kinds of
 * public page, and checks each against the shape below: when a page no longer matches, the
 * answer is a 502 saying what no longer matched, never a guess.
 *
 * 1. The sitemap, `GET /sitemap.xml`: a `sitemapindex` whose child sitemaps (or a `urlset`
 *    directly) list every page in `<loc>`. Decision pages are the addresses under
 *    `/no/hoyesterett/avgjorelser/`: `avgjorelser-{year}/{category}/HR-{year}-{n}-{X}/` since
 *    2024 and `{year}/{category}/hr-{year}-{n}-{x}/` before. From the address alone come the
 *    year, the category slug (`hoyesterett---sivil`, `hoyesteretts-ankeutvalg---straff`, …)
 *    and the case number.
 * 2. Each decision page, `GET {page}`: an Optimizely page whose server-rendered script sets
 *    `__INITIAL__DATA__ = {...}; __INITIAL__DATA__.status = 'available'`. Of that JSON the
 *    client reads `IContent.Name` (the title), `IContent.MainIntro` (HTML: "Høyesteretts dom
 *    9. mai 2025, HR-2025-844-A, (sak nr. …), sivil sak, anke over …", the case intro and the
 *    date published) and `IContent.MainBody` (HTML: the summary, the link to the PDF under
 *    `/globalassets/`, "Dommere", "Rettsområde", "Nøkkelavsnitt"). Property names are read
 *    without regard to case (`mainIntro`, `MainIntro`) and a value may be wrapped as
 *    `{ "Value": … }`, as Optimizely serialises both ways.
 * 3. The decision's PDF, `GET {the link to a .pdf in MainBody}` (under `/globalassets/`), read
 *    only when the full text is asked for: the page holds the summary, the PDF the decision.
 *    Its text is extracted with PDF.js (see pdf-text.ts); a PDF that cannot be fetched or
 *    read gives no text and a note saying why, never a guess.
 */
import { createTimedMemo, listSizeCheck, UpstreamError, type UpstreamClient } from '@allmenning/core/source'
import { attributeOf, findElement, tagOf, type MarkupNode } from './markup-tree.js'
import { renderText } from './section-text.js'
import { pdfText, PdfTextError } from './pdf-text.js'
import { DOMSTOL_ORIGIN, domstolSite } from './case-law-upstream.js'
import { parseHrNumber } from './hr-number.js'
import { mapConcurrently } from '../shared/map-concurrently.js'

/** A decision as the sitemap lists it. */
export interface DecisionEntry {
  /** `HR-2025-844-A`. */
  hrNumber: string
  year: number
  /** `sivil`, `straff`, `ankeutvalg-sivil`, `ankeutvalg-straff`; the slug itself for one not known. */
  category: string
  /** The page on domstol.no. */
  url: string
  /** The path the client fetches it by. */
  path: string
}

/** A decision with what its page says. */
export interface Decision extends DecisionEntry {
  title: string
  /** ISO date from the case intro. */
  published: string
  /** "Høyesteretts dom 9. mai 2025, HR-2025-844-A, (sak nr. 24-182418SIV-HRET), sivil sak, …". */
  caseIntro: string
  /** The summary, paragraph by paragraph, with the judges, legal area and key paragraphs. */
  summary: string
  pdfUrl: string | null
}

const DECISION_PATH =
  /^\/no\/hoyesterett\/avgjorelser\/(?:avgjorelser-)?(\d{4})\/([a-z0-9-]+)\/(hr-\d{4}-\d{1,6}-[a-z])\/?$/i
const MONTHS = [
  'januar',
  'februar',
  'mars',
  'april',
  'mai',
  'juni',
  'juli',
  'august',
  'september',
  'oktober',
  'november',
  'desember',
]

/**
 * The category of a decision from the slug of its listing page.
 *
 * @example
 * categoryOfSlug('hoyesteretts-ankeutvalg---straff') // 'ankeutvalg-straff'
 */
export function categoryOfSlug(slug: string): string {
  const s = slug.toLowerCase()
  const kind = s.includes('sivil') ? 'sivil' : s.includes('straff') ? 'straff' : undefined
  if (!kind) return s
  return s.includes('ankeutvalg') ? `ankeutvalg-${kind}` : kind
}

function shapeChanged(client: UpstreamClient, what: string): UpstreamError {
  return new UpstreamError(
    { id: client.id, name: client.name },
    'invalid_response',
    `${what}; the site's shape has changed`,
  )
}

/** A URL on domstol.no as the path to fetch on the client's base (a local stand-in in tests). */
function pathOf(url: string): string | undefined {
  try {
    const parsed = new URL(url, DOMSTOL_ORIGIN)
    if (!/(^|\.)domstol\.no$/.test(parsed.hostname)) return undefined
    return parsed.pathname + parsed.search
  } catch {
    return undefined
  }
}

function locations(xml: string): string[] {
  return [...xml.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/g)].map((m) => (m[1] as string).replace(/&amp;/g, '&'))
}

/**
 * The decision pages listed in domstol.no's sitemap: the index and up to `maxSitemaps` child
 * sitemaps. A sitemap with no `<loc>`, or with no Høyesterett decision among them, is a
 * changed site (502).
 *
 * @example
 * const entries = await readDecisionSitemap(ctx.upstream(domstolSite))
 */
export async function readDecisionSitemap(client: UpstreamClient, maxSitemaps = 50): Promise<DecisionEntry[]> {
  const index = (await client.getText('/sitemap.xml')).body
  let pages: string[]
  if (/<sitemapindex[\s>]/.test(index)) {
    const children = locations(index)
      .map(pathOf)
      .filter((p): p is string => p !== undefined)
      .slice(0, maxSitemaps)
    if (children.length === 0)
      throw shapeChanged(client, 'answered a sitemap index without child sitemaps (<sitemap><loc>)')
    pages = []
    for (const child of children) pages.push(...locations((await client.getText(child)).body))
  } else if (/<urlset[\s>]/.test(index)) {
    pages = locations(index)
  } else {
    throw shapeChanged(client, 'answered /sitemap.xml without <sitemapindex> or <urlset>')
  }
  const seen = new Set<string>()
  const entries: DecisionEntry[] = []
  for (const url of pages) {
    const path = pathOf(url)
    const match = path ? DECISION_PATH.exec(path.split('?')[0] as string) : null
    if (!path || !match) continue
    const hrNumber = parseHrNumber(match[3] as string)
    if (!hrNumber || seen.has(hrNumber)) continue
    seen.add(hrNumber)
    entries.push({
      hrNumber,
      year: Number(match[1]),
      category: categoryOfSlug(match[2] as string),
      url: `${DOMSTOL_ORIGIN}${path}`,
      path,
    })
  }
  if (entries.length === 0) {
    throw shapeChanged(
      client,
      `lists no Høyesterett decision page (/no/hoyesterett/avgjorelser/…/HR-…/) among ${pages.length} pages of its sitemap`,
    )
  }
  return entries
}

/** The JSON of `__INITIAL__DATA__ = {…}; __INITIAL__DATA__.status = …`, or undefined. */
function initialData(html: string): unknown {
  // A first script sets a placeholder ({status: 'loading'}); the data is the assignment that
  // the status line follows.
  const status = html.search(/__INITIAL__DATA__\.status\s*=\s*['"]available['"]/)
  if (status < 0) return undefined
  const assignment = html.lastIndexOf('__INITIAL__DATA__', status - 1)
  const open = assignment < 0 ? -1 : html.indexOf('{', assignment)
  if (open < 0 || open > status) return undefined
  const json = html.slice(open, status).trim().replace(/;$/, '')
  try {
    return JSON.parse(json)
  } catch {
    return undefined
  }
}

/** A property of an object whatever the case of its name; an Optimizely `{ Value }` wrapper unwrapped. */
function property(object: unknown, name: string): unknown {
  if (typeof object !== 'object' || object === null) return undefined
  const key = Object.keys(object).find((k) => k.toLowerCase() === name.toLowerCase())
  const value = key === undefined ? undefined : (object as Record<string, unknown>)[key]
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const inner = Object.keys(value).find((k) => k.toLowerCase() === 'value')
    if (inner !== undefined) return (value as Record<string, unknown>)[inner]
  }
  return value
}

type ParseMarkup = (xml: string) => MarkupNode[]

function htmlText(parseMarkup: ParseMarkup, html: string): string {
  let nodes: MarkupNode[]
  try {
    nodes = parseMarkup(`<div>${html}</div>`)
  } catch {
    return html
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  }
  return renderText(nodes)
}

function firstPdfLink(parseMarkup: ParseMarkup, html: string): string | null {
  let nodes: MarkupNode[]
  try {
    nodes = parseMarkup(`<div>${html}</div>`)
  } catch {
    const match = /href="([^"]+\.pdf)"/i.exec(html)
    return match ? new URL(match[1] as string, DOMSTOL_ORIGIN).toString() : null
  }
  const link = findElement(
    nodes,
    (node) => tagOf(node) === 'a' && /\.pdf(\?|#|$)/i.test(attributeOf(node, 'href') ?? ''),
  )
  return link ? new URL(attributeOf(link, 'href') as string, DOMSTOL_ORIGIN).toString() : null
}

/** "9. mai 2025" in the case intro, as an ISO date. */
function publishedDate(intro: string): string | undefined {
  const match =
    /(\d{1,2})\.\s*(januar|februar|mars|april|mai|juni|juli|august|september|oktober|november|desember)\s+(\d{4})/i.exec(
      intro,
    )
  if (!match) return undefined
  const month = MONTHS.indexOf((match[2] as string).toLowerCase()) + 1
  return `${match[3]}-${String(month).padStart(2, '0')}-${(match[1] as string).padStart(2, '0')}`
}

/**
 * Reads one decision page (see the module comment for the fields). Every field is checked:
 * a page without `__INITIAL__DATA__`, without `IContent.Name`, `MainIntro` or `MainBody`,
 * whose intro names another case or no date, is a 502 naming what no longer matched.
 *
 * @example
 * const decision = await parseDecisionPage(client, entry, html)
 */
export async function parseDecisionPage(client: UpstreamClient, entry: DecisionEntry, html: string): Promise<Decision> {
  // The markup parser (fast-xml-parser) loads with the first decision page, not with the source.
  const { parseMarkup } = await import('./parse-markup.js')
  const page = `the decision page ${entry.path}`
  const data = initialData(html)
  if (data === undefined)
    throw shapeChanged(client, `answered ${page} without the __INITIAL__DATA__ JSON it used to carry`)
  const content = property(data, 'IContent')
  if (typeof content !== 'object' || content === null)
    throw shapeChanged(client, `answered ${page} without __INITIAL__DATA__.IContent`)
  const name = property(content, 'Name')
  const intro = property(content, 'MainIntro')
  const body = property(content, 'MainBody')
  for (const [field, value] of [
    ['Name', name],
    ['MainIntro', intro],
    ['MainBody', body],
  ] as const) {
    if (typeof value !== 'string') throw shapeChanged(client, `answered ${page} without IContent.${field} as text`)
  }
  const caseIntro = htmlText(parseMarkup, intro as string).replace(/\n+/g, ' ')
  const namesCase = caseIntro
    .toUpperCase()
    .replace(/-0+(\d)/g, '-$1')
    .includes(entry.hrNumber)
  if (!namesCase) throw shapeChanged(client, `answered ${page} with an intro that does not name ${entry.hrNumber}`)
  const published = publishedDate(caseIntro)
  if (!published) throw shapeChanged(client, `answered ${page} with an intro that gives no date ("9. mai 2025")`)
  const title = htmlText(parseMarkup, name as string).replace(/\n+/g, ' ')
  if (title === '') throw shapeChanged(client, `answered ${page} with an empty IContent.Name`)
  return {
    ...entry,
    title,
    published,
    caseIntro,
    summary: htmlText(parseMarkup, body as string),
    pdfUrl: firstPdfLink(parseMarkup, body as string),
  }
}

/** Settings of {@link createHoyesterettClient}. */
export interface HoyesterettClientOptions {
  /** How long the sitemap is trusted, in ms; one hour by default. */
  sitemapTtlMs?: number
  /** How long a decision page is trusted, in ms; one day by default (decisions do not change). */
  decisionTtlMs?: number
  /** Decision pages fetched at once while loading a year; 4 by default, to be gentle with the site. */
  concurrency?: number
  /** Clock, for tests. */
  now?: () => number
}

/** Høyesterett decisions from domstol.no, memoized per source instance. See {@link createHoyesterettClient}. */
export interface HoyesterettClient {
  /** The decisions of one year with their page contents, newest case number first. Cached per year. */
  year(client: UpstreamClient, year: number): Promise<Decision[]>
  /** One decision by case number; undefined when the sitemap does not list it. */
  decision(client: UpstreamClient, hrNumber: string): Promise<Decision | undefined>
  /**
   * The decision's full text, read from the PDF its page links to (the page itself holds only
   * the summary), or why it is not available. Cached per decision.
   */
  fullText(client: UpstreamClient, decision: Decision): Promise<DecisionText>
  /** The years already loaded, without loading any. */
  loadedYears(): number[]
}

/** A decision's full text, or the reason it is not available, said to the caller as a note. */
export type DecisionText = { text: string } | { unavailable: string }

const byNumberDescending = (a: DecisionEntry, b: DecisionEntry) => {
  const n = (e: DecisionEntry) => Number(e.hrNumber.split('-')[2])
  return b.year - a.year || n(b) - n(a)
}

/**
 * Creates the Høyesterett client of one `lovdata` source: the sitemap is memoized for an
 * hour (an old copy is served for a day while a refresh fails), each decision page for a
 * day, and a year's list as a whole, so repeated calls for a year fetch nothing.
 *
 * @example
 * const hoyesterett = createHoyesterettClient()
 * const decisions = await hoyesterett.year(ctx.upstream(domstolSite), 2025)
 */
export function createHoyesterettClient(options: HoyesterettClientOptions = {}): HoyesterettClient {
  const clock = options.now ? { now: options.now } : {}
  const hour = 3_600_000
  // A sitemap that lost more than half of its decisions since the last good one was cut short
  // (a site half rebuilt, a child sitemap failing quietly), not pruned: it is not kept, or every
  // decision it dropped would be "not found" for an hour.
  const sitemap = createTimedMemo<DecisionEntry[]>({
    ttlMs: options.sitemapTtlMs ?? hour,
    staleMs: 24 * hour,
    errorTtlMs: 60_000,
    maxEntries: 1,
    plausible: listSizeCheck({
      upstream: domstolSite,
      what: 'sitemap of Høyesterett decisions',
      count: (entries) => entries.length,
    }),
    ...clock,
  })
  const pages = createTimedMemo<Decision>({
    ttlMs: options.decisionTtlMs ?? 24 * hour,
    errorTtlMs: 60_000,
    maxEntries: 5000,
    ...clock,
  })
  const years = createTimedMemo<Decision[]>({
    ttlMs: options.sitemapTtlMs ?? hour,
    staleMs: 24 * hour,
    maxEntries: 100,
    ...clock,
  })
  const concurrency = options.concurrency ?? 4
  const texts = createTimedMemo<DecisionText>({
    ttlMs: options.decisionTtlMs ?? 24 * hour,
    errorTtlMs: 60_000,
    maxEntries: 200,
    ...clock,
  })

  const entries = (client: UpstreamClient) => sitemap.get('all', () => readDecisionSitemap(client))
  const load = (client: UpstreamClient, entry: DecisionEntry) =>
    pages.get(entry.hrNumber, async () => parseDecisionPage(client, entry, (await client.getText(entry.path)).body))

  return {
    year: (client, year) =>
      years.get(String(year), async () => {
        const listed = (await entries(client)).filter((entry) => entry.year === year).sort(byNumberDescending)
        return mapConcurrently(listed, concurrency, (entry) => load(client, entry))
      }),
    async decision(client, hrNumber) {
      const entry = (await entries(client)).find((e) => e.hrNumber === hrNumber)
      return entry ? load(client, entry) : undefined
    },
    async fullText(client, decision) {
      const path = decision.pdfUrl ? pathOf(decision.pdfUrl) : undefined
      if (!path)
        return {
          unavailable: `domstol.no's page for ${decision.hrNumber} links no PDF of the decision, and the page itself holds only the summary: the full text is not available.`,
        }
      try {
        return await texts.get(decision.hrNumber, async () => {
          // A failed download is not kept (the memo retries after a minute); an unreadable PDF is.
          const { body } = await client.getBytes(path)
          try {
            return { text: await pdfText(body) }
          } catch (error) {
            if (error instanceof PdfTextError)
              return {
                unavailable: `The decision's PDF (pdf_url) ${error.message}, so its full text is not available here; read the PDF itself.`,
              }
            throw error
          }
        })
      } catch (error) {
        if (error instanceof UpstreamError)
          return {
            unavailable: `The decision's PDF (pdf_url) could not be fetched: ${error.message}. The full text is not available now.`,
          }
        throw error
      }
    },
    loadedYears: () => {
      const loaded: number[] = []
      for (let y = 2000; y <= 2100; y++) if (years.peek(String(y))) loaded.push(y)
      return loaded
    },
  }
}
