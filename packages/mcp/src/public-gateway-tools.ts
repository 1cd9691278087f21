import type { ExtensionRoute, JsonSchema } from '@allmenning/core/extension'
import { allSourcesRoutes, getDataTool, routeFinder, routeTool } from './all-sources-tools.js'
import { objectSchema, type McpTool } from './mcp-tool.js'
import type { ToolAnswer } from './mcp-tool.js'

/*
 * The catalogue under the public gateway's tool names, for agents configured for its MCP
 * catalogue at /allemannsdata/mcp: search_wiki, describe_source, describe_operation and
 * get_data. What is known of them is their names, and that describe_operation answers
 * `json_get_url_template`; their arguments are not documented where this could read them.
 * Assumed, and so accepted both ways where a guess could be wrong:
 * - search_wiki takes the text as `query` (or as `q`, this gateway's own name), with the other
 *   arguments of GET /sok/alle;
 * - describe_source takes `source`, describe_operation `source` and `operation`, and get_data
 *   `source`, `operation` and the operation's own `parameters` as one object, as here;
 * - `json_get_url_template` is the plain GET URL template, the value this gateway calls
 *   `get_url_template`; both are answered, in describe_operation and for every operation of
 *   describe_source.
 */

/** The answer with `json_get_url_template` beside each `get_url_template`, at the top and in `operations`. */
function withJsonTemplates(answer: ToolAnswer): ToolAnswer {
  if (answer.status !== 200 || answer.body === null) return answer
  const value = (answer.value ?? JSON.parse(answer.body)) as Record<string, unknown>
  const add = (o: unknown): unknown => {
    if (typeof o !== 'object' || o === null || Array.isArray(o)) return o
    const record = o as Record<string, unknown>
    return 'get_url_template' in record ? { ...record, json_get_url_template: record['get_url_template'] } : record
  }
  // The cached value is shared with every caller: copied, never changed.
  const copy = add(value) as Record<string, unknown>
  const reshaped = Array.isArray(copy['operations']) ? { ...copy, operations: copy['operations'].map(add) } : copy
  const body = JSON.stringify(reshaped)
  return { status: answer.status, body, value: reshaped }
}

/** search_wiki: GET /sok/alle, its text as `query` or `q`. */
function searchWikiTool(route: ExtensionRoute): McpTool {
  const base = routeTool('search_wiki', '', route)
  const properties = { ...(base.definition.inputSchema['properties'] as Record<string, JsonSchema>) }
  const q = properties['q'] ?? { type: 'string' }
  properties['query'] = {
    ...q,
    description: 'What to search for: a topic, a source, or an entity by name or number (the same as q)',
  }
  const required = ((base.definition.inputSchema['required'] as string[] | undefined) ?? []).filter(
    (name) => name !== 'q',
  )
  return {
    definition: {
      ...base.definition,
      description:
        "Searches this gateway: data sources by topic, name or keyword, and entities such as companies or airports by name or number (the public gateway's search_wiki, answered by GET /sok/alle). Give the text as query. Each result names its source: use that id with describe_source and get_data.",
      inputSchema: objectSchema(properties, required),
    },
    target(args) {
      const { query, ...rest } = args
      // With both given, q wins: it is the route's own name, and the 400 then names it.
      return base.target(query !== undefined && rest['q'] === undefined ? { ...rest, q: query } : rest)
    },
  }
}

/**
 * The tools of the catalogue at `/allemannsdata/mcp`, under the public gateway's names, over the
 * same routes as the catalogue's own tools: `search_wiki`, `describe_source`,
 * `describe_operation` (with `json_get_url_template`) and `get_data`.
 *
 * @example
 * publicGatewayTools(host.routes()).map((t) => t.definition.name)
 * // ['search_wiki', 'describe_source', 'describe_operation', 'get_data']
 */
export function publicGatewayTools(routes: ExtensionRoute[]): McpTool[] {
  const route = routeFinder(routes)
  const described = (name: 'describe_source' | 'describe_operation'): McpTool => {
    const tool = routeTool(
      name,
      allSourcesRoutes[name].description.replace('get_url_template', 'json_get_url_template'),
      route(allSourcesRoutes[name].route),
    )
    return { ...tool, reshape: withJsonTemplates }
  }
  return [
    searchWikiTool(route('search')),
    described('describe_source'),
    described('describe_operation'),
    getDataTool(route('operation')),
  ]
}
