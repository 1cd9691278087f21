import { DownloadError, failureReason } from './download-file.js'
import { httpGet, HttpGetError, readText, type HttpAnswer } from './http-get.js'

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
export async function discoverFiles(page: string, pattern: RegExp, userAgent: string, signal?: AbortSignal): Promise<string[]> {
  const controller = new AbortController()
  const abort = () => controller.abort(signal?.reason)
  signal?.addEventListener('abort', abort, { once: true })
  const timer = setTimeout(() => controller.abort(new DownloadError(`${page} did not answer within 30 s`)), 30_000)
  let answer: HttpAnswer
  let html: string
  try {
    answer = await httpGet(page, { 'user-agent': userAgent, accept: 'text/html,*/*' }, controller.signal)
    if (answer.response.statusCode !== 200) {
      answer.response.resume()
      throw new DownloadError(`${page} answered ${answer.response.statusCode} ${answer.response.statusMessage ?? ''}`.trimEnd())
    }
    html = await readText(answer, pageLimit)
  } catch (error) {
    if (error instanceof DownloadError) throw error
    if (error instanceof HttpGetError) throw new DownloadError(error.message)
    throw new DownloadError(`${page} could not be reached: ${failureReason(error, controller)}`)
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', abort)
  }
  const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`)
  const found: string[] = []
  for (const match of html.matchAll(global)) {
    const url = new URL(match[0].replace(/&amp;/g, '&'), answer.url).href
    if (!found.includes(url)) found.push(url)
  }
  if (found.length === 0) throw new DownloadError(`${page} links to no file matching ${pattern}; the page may have changed`)
  return found
}
