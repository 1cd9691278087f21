import { GatewayError, type ProblemDetail } from '@allmenning/core'
import type { ExtensionRoute, JsonSchema } from '@allmenning/core/extension'
import { objectSchema, readOnly, type McpTool, type ToolTarget } from './mcp-tool.js'
import { toParameters, toQueryString } from './tool-arguments.js'

/** The all-sources server's tools (MCP at /mcp, which docs/mcp.md calls the catalogue), each the route of the JSON API it calls. */
export const allSourcesRoutes = {
  search_sources: {
    route: 'search',
    description:
      'Searches the gateway as GET /sok/alle does: data sources by topic, name or keyword (for example "strøm", "flights", "company"), and entities such as companies or airports by name or number; mode chooses, and auto decides by itself. Each result names its source: use that id with describe_source and get_data.',
  },
  list_sources: {
    route: 'sources',
    description: 'Lists every data source this gateway serves, with its id and name.',
  },
  describe_source: {
    route: 'source',
    description:
      'Describes one data source: what it holds, who publishes it, and its operations with their descriptions, parameters and get_url_template (the plain GET URL that gives the same answer without MCP).',
  },
  describe_operation: {
    route: 'operation_schema',
    description:
      'Describes one operation: every parameter with its type, default, bounds and allowed values, the fields of its output, and get_url_template, the plain GET URL to call it with in production.',
  },
} as const

const getDataDescription =
  'Calls any operation of any source and returns its JSON envelope ({source, operation, parameters, data, _meta, ...}). Put the operation\'s own parameters, as describe_operation lists them, in "parameters". Every source also has its own MCP server (/{source}/mcp) with one tool per operation.'

function problem(parameter: string, text: string, rule: string): GatewayError {
  const details: ProblemDetail[] = [{ parameter, problem: text, rule }]
  return new GatewayError(400, 'invalid_parameter', `Invalid parameter: ${parameter} ${text}`, { details })
}

/** The route's path below the mount point with its `{name}` segments filled from the arguments, which must be non-empty strings. */
function fillPath(route: ExtensionRoute, args: Record<string, unknown>): string {
  return `${route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = args[name]
    if (value === undefined || value === null || value === '') throw problem(name, 'is required', 'required')
    if (typeof value !== 'string') throw problem(name, `must be a string (got ${typeof value})`, 'type')
    try {
      return encodeURIComponent(value)
    } catch {
      throw problem(name, 'must be valid Unicode text', 'encoding')
    }
  })}`
}

function without(args: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([name]) => !names.includes(name)))
}

function pathProperties(route: ExtensionRoute): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(route.pathParameters).map(([name, p]) => [name, { ...p.schema, description: p.description }]),
  )
}

/** A tool over one route: its path parameters and query parameters are the tool's arguments. */
export function routeTool(name: string, description: string, route: ExtensionRoute): McpTool {
  const pathNames = Object.keys(route.pathParameters)
  const properties = {
    ...pathProperties(route),
    ...Object.fromEntries(route.parameters.map((p) => [p.name, p.jsonSchema])),
  }
  const required = [...pathNames, ...route.parameters.filter((p) => p.required).map((p) => p.name)]
  return {
    definition: { name, description, inputSchema: objectSchema(properties, required), annotations: readOnly(false) },
    target: (args): ToolTarget => ({ path: fillPath(route, args), query: toQueryString(without(args, pathNames)) }),
  }
}

/** get_data: the operation route, whose query parameters depend on the operation, so they come as one object. */
export function getDataTool(route: ExtensionRoute): McpTool {
  const pathNames = Object.keys(route.pathParameters)
  const parameters: JsonSchema = {
    type: 'object',
    description:
      "The operation's parameters by name, as describe_operation lists them; leave out those you do not need.",
    additionalProperties: { type: ['string', 'number', 'boolean'] },
  }
  return {
    definition: {
      name: 'get_data',
      description: getDataDescription,
      inputSchema: objectSchema({ ...pathProperties(route), parameters }, pathNames),
      annotations: readOnly(true),
    },
    target(args) {
      const extra = Object.keys(args).filter((name) => name !== 'parameters' && !pathNames.includes(name))
      if (extra.length > 0) {
        const names = extra.map((name) => name.slice(0, 40)).join(', ')
        throw new GatewayError(
          400,
          'unknown_parameter',
          `Unknown argument ${names}; put the operation's own parameters in "parameters"`,
          {
            details: extra.map((name) => ({
              parameter: name.slice(0, 100),
              problem: `is not an argument of get_data (accepted: ${[...pathNames, 'parameters'].join(', ')})`,
              rule: 'unknown',
            })),
          },
        )
      }
      const given = args.parameters ?? {}
      if (typeof given !== 'object' || given === null || Array.isArray(given))
        throw problem('parameters', 'must be an object of parameter names and values', 'type')
      // Checked as the path of its GET would be, then called in process.
      fillPath(route, args)
      return {
        source: args.source as string,
        operation: args.operation as string,
        params: toParameters(given as Record<string, unknown>),
      }
    },
  }
}

/** Finds a route of the gateway by name, or says at start-up which one the catalogue misses. */
export function routeFinder(routes: ExtensionRoute[]): (name: string) => ExtensionRoute {
  const byName = new Map(routes.map((route) => [route.name, route]))
  return (name) => {
    const found = byName.get(name)
    if (!found) throw new TypeError(`The MCP catalogue needs the route ${name}, which the gateway does not have`)
    return found
  }
}

/**
 * The all-sources server's tools, made from the routes they call, so their input schemas are
 * those routes' own query and path parameters: search_sources, list_sources, describe_source,
 * describe_operation and get_data.
 *
 * @example
 * allSourcesTools(host.routes()).map((t) => t.definition.name)
 * // ['search_sources', 'list_sources', 'describe_source', 'describe_operation', 'get_data']
 */
export function allSourcesTools(routes: ExtensionRoute[]): McpTool[] {
  const route = routeFinder(routes)
  return [
    ...Object.entries(allSourcesRoutes).map(([name, tool]) => routeTool(name, tool.description, route(tool.route))),
    getDataTool(route('operation')),
  ]
}
