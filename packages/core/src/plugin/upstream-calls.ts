// What an operation's upstream client offers (`ctx.upstream(definition)`): the interface a source is
// written against, beside the operation's context that hands it out. The client itself, its
// transports and its limits are upstream/upstream-client.ts.

export type QueryValues = Record<string, string | number | boolean | undefined>

export interface UpstreamCallOptions {
  query?: QueryValues
  headers?: Record<string, string>
  /**
   * Statuses besides 2xx that the caller handles itself (for example 404 and 410). Their
   * body is optional: from getJson it is `undefined` when empty or not JSON.
   */
  acceptStatus?: number[]
  /**
   * Secrets that are part of the URL (an API key in the path or query): shown as `***` in
   * `_provenance` and in `UpstreamResponse.url`, so an answer never publishes a deployment's key.
   */
  redact?: string[]
}

/** A body sent with {@link UpstreamClient.postJson}: a form, or a value sent as JSON. */
export type UpstreamBody = URLSearchParams | Record<string, unknown> | unknown[]

export interface UpstreamResponse<T> {
  status: number
  /** The URL that was called, for `_provenance.data.source_api` (secrets in `redact` shown as `***`). */
  url: string
  contentType: string
  /**
   * Response headers, names in lower case, repeated values joined with ", ". Sources read
   * caching headers here (`expires`, `last-modified`) when an upstream's terms ask them to.
   */
  headers: Record<string, string>
  body: T
}

/**
 * A client for one upstream, bound to one operation call so that every URL it calls is
 * recorded for provenance.
 *
 * @example
 * const { body, url } = await ctx.upstream(statnettApi).getJson('/PhysicalFlowMap/GetFlow') // body: unknown until its shape is checked
 */
export interface UpstreamClient {
  readonly id: string
  readonly name: string
  /**
   * The User-Agent sent on every call (the gateway's `upstream.userAgent`, with the contact the
   * examples add from `ALLMENNING_CONTACT`): for upstreams that ask to be told who calls in a
   * header of their own, as Entur's `ET-Client-Name`.
   */
  readonly userAgent: string
  /** Builds the URL a call would use, without calling it. */
  url(path: string, query?: QueryValues): string
  getJson<T = unknown>(path: string, options?: UpstreamCallOptions): Promise<UpstreamResponse<T>>
  /**
   * POSTs a form (`URLSearchParams`) or a JSON value and reads a JSON answer: for the few
   * upstreams that take their question or their credentials in a body (an OAuth token request).
   */
  postJson<T = unknown>(path: string, body: UpstreamBody, options?: UpstreamCallOptions): Promise<UpstreamResponse<T>>
  /**
   * POSTs a text body as it is, with its content type (an XML question, as SIRI services take
   * theirs), and reads a text answer decoded as {@link getText} decodes it. Such answers are
   * never shared between calls; a source that shares one keeps it itself.
   */
  postText(
    path: string,
    body: string,
    options: UpstreamCallOptions & { contentType: string; encoding?: string },
  ): Promise<UpstreamResponse<string>>
  /** Text decoded with `encoding` (default: the charset the response names, else UTF-8). */
  getText(path: string, options?: UpstreamCallOptions & { encoding?: string }): Promise<UpstreamResponse<string>>
  /** The body's bytes as sent (a PDF, an image), within the upstream's size limit. */
  getBytes(path: string, options?: UpstreamCallOptions): Promise<UpstreamResponse<Buffer>>
}
