import { DownloadError, httpGet, readText, statusError } from './http-get.js'

/** A page of links is a few hundred kilobytes; more is not the page. */
const pageLimit = 8 << 20

/**
 * The files a publisher's page links to, for datasets whose file names change (a new label
 * every year): every link matching `pattern`, made absolute against the page, once each,
 * in the page's order.
 *
 * @example
 * await discoverFiles('https://www.forskningsradet.no/skattefunn/suksesshistorier/', /skattefunn-innsendte-soknader[^"'\s>]*\.xlsx/, 'allmenning/0.1.0')
 * // ['https://www.forskningsradet.no/siteassets/skattefunn/tall/skattefunn-innsendte-soknader-2002-2024.xlsx', ...]
 */
export async function discoverFiles(
  page: string,
  pattern: RegExp,
  userAgent: string,
  signal?: AbortSignal,
): Promise<string[]> {
  const timeout = new AbortController()
  const timer = setTimeout(() => timeout.abort(new DownloadError(`${page} did not answer within 30 s`)), 30_000)
  const stop = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal
  try {
    const answer = await httpGet(page, { 'user-agent': userAgent, accept: 'text/html,*/*' }, stop)
    if (answer.response.statusCode !== 200) throw statusError(page, answer.response)
    return linksIn(await readText(answer, pageLimit, stop), answer.url, pattern, page)
  } finally {
    clearTimeout(timer)
  }
}

/** Every link in `html` matching `pattern`, absolute against `base`, once each, in order. */
function linksIn(html: string, base: string, pattern: RegExp, page: string): string[] {
  const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`)
  const found: string[] = []
  for (const match of html.matchAll(global)) {
    const url = new URL(match[0].replace(/&amp;/g, '&'), base).href
    if (!found.includes(url)) found.push(url)
  }
  if (found.length === 0)
    throw new DownloadError(`${page} links to no file matching ${pattern}; the page may have changed`)
  return found
}
