import type { CompiledOperation, CompiledSource } from './compile-source.js'
import type { PlaceFieldDeclaration } from '../plugin/place-fields.js'

/** The operation that fills one place field, and how it declared the field. */
export interface PlaceProvider {
  field: PlaceFieldDeclaration
  source: CompiledSource
  /** The operation's name, known without loading or compiling its source. */
  operationName: string
  /** The operation, compiled with its source (on first use where sources compile then). */
  readonly operation: CompiledOperation
}

/** The operation that fills each place field, by field name, in the order fields are answered and listed. */
export type PlaceProviders = ReadonlyMap<string, PlaceProvider>

const byOrder = (a: number | undefined, b: number | undefined) => (a ?? Infinity) - (b ?? Infinity) || 0

/**
 * The place fields the sources declare, each with the operation that fills it, found once at
 * start-up from the sources' outlines, so no source is loaded or compiled for it. When two operations declare
 * the same field, the first given wins (sources in the order passed to `createGateway`,
 * operations in the order of their source): a deployment can put its own provider of a field
 * before the built-in one. Fields with an `order` come first, lowest first; the rest keep the
 * order they were declared in.
 *
 * @example
 * const providers = createPlaceProviders(catalog.sources)
 * providers.get('current_weather') // { field: { name: 'current_weather', section: 'weather', … }, source, operation }
 */
export function createPlaceProviders(sources: readonly CompiledSource[]): PlaceProviders {
  const found: PlaceProvider[] = []
  const names = new Set<string>()
  for (const source of sources) {
    for (const outline of source.outline) {
      const field = outline.placeField
      if (field === undefined || names.has(field.name)) continue
      names.add(field.name)
      found.push({
        field,
        source,
        operationName: outline.name,
        get operation() {
          return source.operations.get(outline.name)!
        },
      })
    }
  }
  // Array.prototype.sort is stable, so fields without an order keep the order they were declared in.
  found.sort((a, b) => byOrder(a.field.order, b.field.order))
  return new Map(found.map((provider) => [provider.field.name, provider]))
}
