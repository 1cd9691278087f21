import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Explorer, ExplorerAsset } from '@allmenning/core/extension'

/** Options of {@link swaggerUiExplorer}. */
export interface SwaggerUiExplorerOptions {
  /** How far operations are unfolded when the page opens: by tag (`list`, the default), all (`full`), or none. */
  docExpansion?: 'list' | 'full' | 'none'
}

const escapeAttribute = (value: string) =>
  value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')

// Swagger UI is started from a file of its own: the page's policy allows no inline script.
// Its settings come from data attributes. No validator badge (it would call
// validator.swagger.io), no ?url= or ?configUrl= from the address bar, "Try it out" open.
const startScript = `(function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-openapi'),
    dom_id: '#swagger-ui',
    docExpansion: root.getAttribute('data-doc-expansion') || 'list',
    deepLinking: true,
    filter: true,
    tryItOutEnabled: true,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
    validatorUrl: null,
    queryConfigEnabled: false
  });
})();
`

const pageStyle = `body { margin: 0; background: #fafafa; }
.swagger-ui .information-container .info { margin: 30px 0 20px; }
`

/** The folder swagger-ui-dist is installed in, wherever the package manager put it. */
function swaggerUiDistFolder(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
}

/**
 * A file of swagger-ui-dist without its source-map comment (the map is not served), read when
 * its body is first asked for: most processes never serve the explorer, and reading the
 * files took about 9 ms of every start and kept 3.6 MB in the heap (the bundle's text is
 * stored as UTF-16).
 */
function distFile(folder: string, name: string, contentType: string): ExplorerAsset {
  let body: string | undefined
  return {
    contentType,
    get body() {
      body ??= readFileSync(join(folder, name), 'utf8').replace(/\n?\/[/*]# sourceMappingURL=[^\n]*$/, '')
      return body
    },
  }
}

/**
 * The API explorer of choice: Swagger UI from the `swagger-ui-dist` package, served by the
 * gateway at `/api/v1/docs`. It renders the gateway's OpenAPI 3.1 document with every source,
 * operation and parameter, and sends requests from the page ("Try it out") to the gateway
 * itself. Nothing is fetched from a CDN, so it works offline, and it runs under the
 * gateway's Content-Security-Policy: scripts and styles from the gateway only, no inline
 * script, no eval. Each file is read once, when it is first asked for (about 1.9 MB in all);
 * making the explorer only finds the package, so a missing `swagger-ui-dist` fails at once.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { swaggerUiExplorer } from '@allmenning/explorer'
 * const gateway = createGateway({ sources, explorer: swaggerUiExplorer() })
 * // GET /api/v1/docs in a browser
 */
export function swaggerUiExplorer(options: SwaggerUiExplorerOptions = {}): Explorer {
  const folder = swaggerUiDistFolder()
  const version = (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string }).version
  const assets: Record<string, ExplorerAsset> = {
    'swagger-ui.css': distFile(folder, 'swagger-ui.css', 'text/css; charset=utf-8'),
    'swagger-ui-bundle.js': distFile(folder, 'swagger-ui-bundle.js', 'text/javascript; charset=utf-8'),
    'explorer.css': { contentType: 'text/css; charset=utf-8', body: pageStyle },
    'explorer.js': { contentType: 'text/javascript; charset=utf-8', body: startScript },
  }
  const expansion = options.docExpansion ?? 'list'
  return {
    name: `Swagger UI ${version}`,
    assets,
    page: ({ title, openapi, asset }) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeAttribute(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeAttribute(asset('swagger-ui.css'))}">
<link rel="stylesheet" href="${escapeAttribute(asset('explorer.css'))}">
</head>
<body>
<div id="swagger-ui" data-openapi="${escapeAttribute(openapi)}" data-doc-expansion="${expansion}"></div>
<script src="${escapeAttribute(asset('swagger-ui-bundle.js'))}"></script>
<script src="${escapeAttribute(asset('explorer.js'))}"></script>
</body>
</html>
`,
  }
}
