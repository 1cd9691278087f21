/**
 * Builds the gateway's own URLs: absolute under `publicBaseUrl` when one is configured,
 * otherwise root-relative under the adapter's mount path.
 *
 * @example
 * createLinks('https://data.example.no', '').api('/kilder/statnett') // 'https://data.example.no/api/v1/kilder/statnett'
 */
export interface Links {
  /** The base every link starts with, up to and including `/api/v1`. */
  readonly root: string
  api(path: string, query?: Record<string, unknown>): string
}

export function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return ''
  const parts: string[] = []
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue
    const text = typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value)
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`)
  }
  return parts.length > 0 ? `?${parts.join('&')}` : ''
}

export function createLinks(publicBaseUrl: string | undefined, basePath: string | undefined): Links {
  const base = (publicBaseUrl ?? basePath ?? '').replace(/\/+$/, '')
  const root = `${base}/api/v1`
  return {
    root,
    api: (path, query) => `${root}${path}${queryString(query)}`,
  }
}
