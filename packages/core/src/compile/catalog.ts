import type { CompiledOperation, CompiledSource } from './compile-source.js'
import { compileSource } from './compile-source.js'
import type { SourceDefinition } from '../plugin/define-source.js'
import { GatewayError } from '../http/gateway-error.js'

/** The sources a gateway serves, compiled once, looked up by id. */
export interface Catalog {
  sources: CompiledSource[]
  source(id: string): CompiledSource
  operation(sourceId: string, name: string): { source: CompiledSource; operation: CompiledOperation }
  has(id: string): boolean
}

const shown = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)

export function createCatalog(definitions: SourceDefinition[]): Catalog {
  const sources = definitions.map(compileSource)
  const byId = new Map<string, CompiledSource>()
  for (const source of sources) {
    if (byId.has(source.id)) throw new TypeError(`Two sources have the id "${source.id}"`)
    byId.set(source.id, source)
  }
  const ids = sources.map((s) => s.id).join(', ') || 'none'
  const source = (id: string) => {
    const found = byId.get(id)
    if (!found) throw new GatewayError(404, 'source_not_found', `No source ${shown(id)}; available sources: ${ids}`)
    return found
  }
  return {
    sources,
    source,
    has: (id) => byId.has(id),
    operation(sourceId, name) {
      const found = source(sourceId)
      const operation = found.operations.get(name)
      if (!operation) {
        const names = [...found.operations.keys()].join(', ')
        throw new GatewayError(404, 'operation_not_found', `Source ${sourceId} has no operation ${shown(name)}; its operations: ${names}`)
      }
      return { source: found, operation }
    },
  }
}
