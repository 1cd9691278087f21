import { GatewayError } from '../http/gateway-error.js'
import type { GatewayResponse } from '../http/gateway-request.js'
import type { Links } from '../http/links.js'
import { madeOnceResponse } from '../http/json-response.js'

/** One file the explorer page loads: text (a script, a stylesheet), served by the gateway itself. */
export interface ExplorerAsset {
  /** The full Content-Type, charset included: `text/javascript; charset=utf-8`. */
  contentType: string
  /** The file's text, read by the gateway when the asset is first asked for (a getter may load it then). */
  body: string
}

/** Where the explorer page finds what it loads, as the gateway serves it. */
export interface ExplorerPageContext {
  /** Title of the page. */
  title: string
  /** URL of the OpenAPI document to render. */
  openapi: string
  /** URL of one of the explorer's assets. */
  asset(name: string): string
}

/**
 * An API explorer: a page that renders the gateway's OpenAPI document for people and can send
 * requests. `@allmenning/explorer` provides one; give it to `createGateway({ explorer })`. The
 * gateway serves the page at `/api/v1/docs` and the assets at `/api/v1/docs?asset=<name>`,
 * under a Content-Security-Policy that allows scripts and styles from the gateway only, so
 * the page may hold no inline script or style element.
 *
 * @example
 * const explorer: Explorer = {
 *   name: 'Plain',
 *   assets: { 'app.js': { contentType: 'text/javascript; charset=utf-8', body: 'render(document.body.dataset.openapi)' } },
 *   page: ({ title, openapi, asset }) => `<!doctype html><title>${title}</title><body data-openapi="${openapi}"><script src="${asset('app.js')}"></script>`,
 * }
 */
export interface Explorer {
  /** The renderer, for the API index: `Swagger UI 5.35.0`. */
  readonly name: string
  /** The files the page loads, by name (letters, digits, `.`, `-`, `_`). */
  readonly assets: Readonly<Record<string, ExplorerAsset>>
  /** The page's HTML. Values it puts into attributes must be escaped; it gets them unescaped. */
  page(context: ExplorerPageContext): string
}

/** How long browsers may keep the page and its assets; they change only with a deployment. */
const pageMaxAge = 300
const assetMaxAge = 86_400

/**
 * The page's policy: scripts, styles and fonts only from the gateway, no inline script or
 * style element, no eval, no plugins, no framing; requests only to the gateway itself (and to
 * `publicBaseUrl`'s origin, where the document's `servers` point). `data:` images stay allowed
 * for the icons renderers keep in their stylesheets.
 */
export function explorerContentSecurityPolicy(publicBaseUrl: string | undefined): string {
  const api = publicBaseUrl ? ` ${new URL(publicBaseUrl).origin}` : ''
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${api}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ')
}

/** A page or asset, made once and sent as is, not to be read as another type than it says. */
const textResponse = (body: string, contentType: string, headers: Record<string, string>): GatewayResponse =>
  madeOnceResponse(body, contentType, { 'x-content-type-options': 'nosniff', ...headers })

const assetName = /^[A-Za-z0-9._-]+$/

/**
 * Serves an explorer: the page for each link root (made once, so its ETag holds) and each
 * asset (made once per gateway). The route `/api/v1/docs` answers through it.
 *
 * @example
 * const serve = createExplorerResponses(explorer, { publicBaseUrl: undefined })
 * serve.page(links) // text/html with the Content-Security-Policy
 * serve.asset('swagger-ui.css')
 */
export function createExplorerResponses(
  explorer: Explorer,
  options: { publicBaseUrl: string | undefined; title?: string },
) {
  for (const name of Object.keys(explorer.assets)) {
    if (!assetName.test(name))
      throw new TypeError(`Explorer asset name "${name}" must be letters, digits, ".", "-" or "_"`)
  }
  const policy = explorerContentSecurityPolicy(options.publicBaseUrl)
  const pages = new Map<string, GatewayResponse>()
  const assets = new Map<string, GatewayResponse>()
  return {
    names: Object.keys(explorer.assets),
    page(links: Links): GatewayResponse {
      let response = pages.get(links.apiRoot)
      if (!response) {
        const html = explorer.page({
          title: options.title ?? 'Allmenning API explorer',
          openapi: links.to('openapi'),
          asset: (name) => {
            if (!(name in explorer.assets))
              throw new TypeError(`The explorer page loads "${name}", which is not one of its assets`)
            return links.to('explorer', {}, { asset: name })
          },
        })
        response = textResponse(html, 'text/html; charset=utf-8', {
          'cache-control': `public, max-age=${pageMaxAge}`,
          'content-security-policy': policy,
          'referrer-policy': 'no-referrer',
        })
        pages.set(links.apiRoot, response)
      }
      return response
    },
    asset(name: string): GatewayResponse {
      let response = assets.get(name)
      if (!response) {
        const asset = explorer.assets[name]
        if (!asset)
          throw new GatewayError(
            404,
            'route_not_found',
            `The explorer has no asset ${JSON.stringify(name.slice(0, 60))}`,
          )
        response = textResponse(asset.body, asset.contentType, { 'cache-control': `public, max-age=${assetMaxAge}` })
        assets.set(name, response)
      }
      return response
    },
  }
}
