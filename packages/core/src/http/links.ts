/**
 * Builds the gateway's own URLs: absolute under `publicBaseUrl` when one is configured,
 * otherwise root-relative under the adapter's mount path. Every link the gateway writes is
 * made here, so the URL scheme lives in one place.
 *
 * @example
 * createLinks('https://data.example.no', '').operation('statnett', 'get_physical_flow', { area: 'NO1' })
 * // 'https://data.example.no/api/v1/kilder/statnett/get_physical_flow?area=NO1'
 */
export interface Links {
  /** The base every link starts with, up to and including `/api/v1`. */
  readonly root: string
  /** The mount point itself (`https://data.example.no`, `/data` or ''): where `/api/v1` and extensions' endpoints (MCP) hang. */
  readonly mount: string
  /** Any path below the root, with an optional query. */
  api(path: string, query?: Record<string, unknown>): string
  /** The API index. */
  index(): string
  /** The list of sources. */
  sources(): string
  /** A source's descriptor. */
  source(sourceId: string, query?: Record<string, unknown>): string
  /** A call of an operation; `{operation}` stays a template placeholder. */
  operation(sourceId: string, operation: string, query?: Record<string, unknown>): string
  /** An operation's `/schema` descriptor; `{operation}` stays a template placeholder. */
  operationSchema(sourceId: string, operation: string): string
  /** A URI template for calling an operation with the named query parameters. */
  operationTemplate(sourceId: string, operation: string, parameters: string[]): string
  /** An extension's endpoint for a source (`/{source}/mcp`), or for the whole gateway (`/mcp`) without one. */
  extension(name: string, sourceId?: string): string
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

// A template placeholder such as {operation} is kept as it is.
const segment = (value: string) => (/^\{[a-z_]+\}$/.test(value) ? value : encodeURIComponent(value))

export function createLinks(publicBaseUrl: string | undefined, basePath: string | undefined): Links {
  const base = (publicBaseUrl ?? basePath ?? '').replace(/\/+$/, '')
  const root = `${base}/api/v1`
  const api = (path: string, query?: Record<string, unknown>) => `${root}${path}${queryString(query)}`
  const operationPath = (sourceId: string, operation: string) => `/kilder/${segment(sourceId)}/${segment(operation)}`
  return {
    root,
    mount: base,
    api,
    index: () => `${root}/`,
    sources: () => api('/kilder'),
    source: (sourceId, query) => api(`/kilder/${segment(sourceId)}`, query),
    operation: (sourceId, operation, query) => api(operationPath(sourceId, operation), query),
    operationSchema: (sourceId, operation) => api(`${operationPath(sourceId, operation)}/schema`),
    operationTemplate: (sourceId, operation, parameters) =>
      `${api(operationPath(sourceId, operation))}${parameters.length > 0 ? `{?${parameters.join(',')}}` : ''}`,
    extension: (name, sourceId) => (sourceId === undefined ? `${base}/${name}` : `${base}/${segment(sourceId)}/${name}`),
  }
}
