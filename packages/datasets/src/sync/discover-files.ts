import { fetch } from 'undici'
import { DownloadError } from './download-file.js'

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
  let response
  try {
    response = await fetch(page, { headers: { 'user-agent': userAgent, accept: 'text/html,*/*' }, redirect: 'follow', signal: signal ?? AbortSignal.timeout(30_000) })
  } catch (error) {
    throw new DownloadError(`${page} could not be reached: ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}`)
  }
  if (response.status !== 200) {
    await response.body?.cancel()
    throw new DownloadError(`${page} answered ${response.status} ${response.statusText}`.trimEnd())
  }
  const html = await response.text()
  const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`)
  const found: string[] = []
  for (const match of html.matchAll(global)) {
    const url = new URL(match[0].replace(/&amp;/g, '&'), response.url || page).href
    if (!found.includes(url)) found.push(url)
  }
  if (found.length === 0) throw new DownloadError(`${page} links to no file matching ${pattern}; the page may have changed`)
  return found
}
