import type { OperationDefinition } from './define-operation.js'
import type { PlaceFieldDeclaration } from './place-fields.js'

/**
 * What a gateway knows of an operation before its code is loaded: its name, and the place
 * field it fills when it fills one. Enough to list the source, its operations by name, and
 * the fields of the place bundle.
 */
export interface OperationOutline {
  name: string
  /** The same declaration (the same object, best) as the operation's own `placeField`. */
  placeField?: PlaceFieldDeclaration
}

/**
 * A source's operations, loaded when a request first reads them (see {@link deferOperations}).
 */
export interface DeferredOperations {
  /** The operations in the order `load` gives them. */
  readonly outline: readonly OperationOutline[]
  /** Imports the operations' code, once however often it is called; a gateway checks what it gives against `outline`. */
  load(): Promise<readonly OperationDefinition[]>
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyOperation = OperationDefinition<any, any>

/**
 * A source's operations as an outline and a loader, for `defineSource({ operations })`: the
 * operations' schemas, parsers and clients are then imported (with `import()`, which a bundler
 * makes a chunk of) when a request first reads them, not when the source is defined. A
 * serverless cold start that answers the source list, or one source's operation, then
 * evaluates none, or only that source's, code. Listing the sources, their operations by name
 * and the place bundle's fields needs only the outline. `load` is called once per definition,
 * however many gateways serve it: operations made there (with a memo of their upstream's
 * answers) are shared by them all, as operations made beside `defineSource` would be, and each
 * call of a source's factory gets its own. When the loaded operations differ from the outline
 * (another name, order or place field), every request that reads them answers 500 and the
 * error names the difference; `checkSource` catches it in a source's own tests.
 *
 * @example
 * // In a source's module, for defineSource({ …, operations }); its operations.ts exports the
 * // list, export const harbourOperations = [listHarbours, harboursNear], which the loader
 * // imports: (await import('./operations.js')).harbourOperations
 * const operations = deferOperations(
 *   ['list_harbours', { name: 'harbours_near', placeField: { name: 'harbours', section: 'maritime', description: 'The nearest harbours.' } }],
 *   async () => (await importOperations()).harbourOperations,
 * )
 */
export function deferOperations(
  outline: readonly (string | OperationOutline)[],
  load: () => Promise<readonly AnyOperation[]>,
): DeferredOperations {
  let loaded: Promise<readonly AnyOperation[]> | undefined
  return {
    outline: outline.map((entry) => (typeof entry === 'string' ? { name: entry } : entry)),
    load: () => (loaded ??= load()),
  }
}

/** Whether a source's operations are deferred rather than given. */
export function isDeferred(operations: readonly AnyOperation[] | DeferredOperations): operations is DeferredOperations {
  return !Array.isArray(operations)
}

/** The outline of a source's operations, given or deferred. */
export function outlineOf(operations: readonly AnyOperation[] | DeferredOperations): readonly OperationOutline[] {
  return isDeferred(operations)
    ? operations.outline
    : operations.map(({ name, placeField }) => (placeField ? { name, placeField } : { name }))
}

/** Why loaded operations do not match their outline, or undefined when they do. */
function outlineMismatch(outline: readonly OperationOutline[], loaded: readonly AnyOperation[]): string | undefined {
  const names = (list: readonly { name: string }[]) => list.map((o) => o.name).join(', ')
  if (outline.length !== loaded.length || outline.some((o, i) => o.name !== loaded[i]!.name)) {
    return `its outline names the operations ${names(outline)}, but it loaded ${names(loaded)}`
  }
  for (const [i, o] of outline.entries()) {
    const field = loaded[i]!.placeField
    if (o.placeField?.name !== field?.name || o.placeField?.section !== field?.section) {
      const shown = (f: PlaceFieldDeclaration | undefined) => (f ? `${f.name} (section ${f.section})` : 'none')
      return `its outline gives ${o.name} the place field ${shown(o.placeField)}, but the loaded operation fills ${shown(field)}`
    }
  }
  return undefined
}

/**
 * A source's operation definitions, loading them when they are deferred: for tests and tools
 * that read the definitions themselves.
 *
 * @example
 * const operations = await loadOperations(statnett())
 */
export async function loadOperations(source: {
  id: string
  operations: readonly AnyOperation[] | DeferredOperations
}): Promise<readonly AnyOperation[]> {
  if (!isDeferred(source.operations)) return source.operations
  const loaded = await source.operations.load()
  const mismatch = outlineMismatch(source.operations.outline, loaded)
  if (mismatch) throw new TypeError(`Source ${source.id}: ${mismatch}`)
  return loaded
}
