/** What the check needs of a request: its Origin and Host headers, and the gateway's public mount point. */
export interface OriginCheckRequest {
  origin: string | undefined
  host: string | undefined
  /** `links.mount`: absolute (`https://data.example.no`) when `publicBaseUrl` is set, else a path. */
  mount: string
}

/** Which origins and hosts an MCP endpoint answers besides its own. */
export interface OriginRules {
  allowedOrigins?: string[]
  allowedHosts?: string[]
}

/** The origin (`scheme://host[:port]`, default port left out) of a URL, or undefined for one that is not http(s). */
function originOf(text: string): URL | undefined {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return undefined
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined
}

/** A Host header's host (`name[:port]`, lower case, the default port of `protocol` left out), or undefined when it is not one. */
function hostOf(host: string, protocol: string): URL | undefined {
  // A Host header is a name and a port, nothing else: no user, path or query.
  if (!/^[\w.\-~%!$&'()*+,;=:[\]]+$/.test(host)) return undefined
  return originOf(`${protocol}//${host}`)
}

/**
 * Whether a browser page on a host could have been sent here by DNS rebinding: not when the
 * name is a loopback name (`localhost` and names under it, which browsers never ask DNS for)
 * or an IP address (rebinding needs a name the attacker's DNS answers for).
 */
function cannotBeRebound(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '')
  // node:net fetched here, not imported: a module that imports it costs a serverless cold start
  // loading it, though only an MCP request with an Origin header asks.
  return (
    hostname === 'localhost' || hostname.endsWith('.localhost') || process.getBuiltinModule('node:net').isIP(bare) !== 0
  )
}

/**
 * The Origin rule of the MCP endpoints, as the Streamable HTTP transport asks servers to
 * validate Origin against DNS rebinding. A request with no Origin (an agent, curl: browsers
 * send one with every POST) passes. A browser's request passes when its Origin is listed in
 * `allowedOrigins` (`'*'` lists every one), or is the gateway's own: the host of
 * `publicBaseUrl`, or the request's Host where that Host cannot be a rebound name (a loopback
 * name, an IP address, or a name in `allowedHosts`). So a page on `http://evil.example:3000`
 * whose name was made to resolve to 127.0.0.1 is refused, though its Origin and Host agree.
 *
 * With `allowedHosts`, every request (with an Origin or not) must also name one of those hosts
 * (port left aside) in its Host header, as the SDK's `hostHeaderValidation` asks.
 *
 * Returns why a request is refused, or undefined when it may pass.
 *
 * @example
 * const check = createOriginCheck({ allowedOrigins: ['https://app.example.no'] })
 * check({ origin: 'http://evil.example', host: 'evil.example', mount: '' }) // 'the Origin http://evil.example is not allowed'
 * check({ origin: undefined, host: 'evil.example', mount: '' }) // undefined
 */
export function createOriginCheck(rules: OriginRules): (request: OriginCheckRequest) => string | undefined {
  const anyOrigin = rules.allowedOrigins?.includes('*') ?? false
  const origins = new Set(
    (rules.allowedOrigins ?? [])
      .filter((origin) => origin !== '*')
      .map((origin) => {
        const url = originOf(origin)
        if (url?.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '') {
          throw new TypeError(
            `allowedOrigins takes origins such as https://app.example.no (scheme, host and port only), or '*' (got ${JSON.stringify(origin)})`,
          )
        }
        return url.origin
      }),
  )
  const hosts = rules.allowedHosts ? new Set(rules.allowedHosts.map((host) => host.toLowerCase())) : undefined
  // The public mount point's origin, read once per mount point.
  let publicFor: { mount: string; origin: string | undefined } = { mount: '', origin: undefined }

  return ({ origin, host, mount }) => {
    if (hosts) {
      const hostname = host === undefined ? undefined : hostOf(host, 'http:')?.hostname
      if (hostname === undefined || !hosts.has(hostname))
        return `the Host ${JSON.stringify((host ?? '').slice(0, 100))} is not one this server answers at`
    }
    if (origin === undefined || anyOrigin) return undefined
    const refusal = `the Origin ${origin.slice(0, 100)} is not allowed`
    const url = originOf(origin)
    // "null" (a sandboxed frame, a file) or anything that is not an http(s) origin.
    if (!url) return refusal
    if (origins.has(url.origin)) return undefined
    if (publicFor.mount !== mount)
      publicFor = { mount, origin: /^https?:\/\//i.test(mount) ? originOf(mount)?.origin : undefined }
    if (url.origin === publicFor.origin) return undefined
    const own = host === undefined ? undefined : hostOf(host, url.protocol)
    if (own && own.host === url.host && (cannotBeRebound(own.hostname) || hosts?.has(own.hostname))) return undefined
    return refusal
  }
}
