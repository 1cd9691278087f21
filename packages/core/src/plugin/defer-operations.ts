import type { OperationDefinition, OperationDraft } from './define-operation.js'
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
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyOperationDraft = OperationDraft<any, any>

/** The keys of `T` whose values are operation definitions, named or not. */
export type OperationKey<T> = {
  [K in keyof T]: T[K] extends AnyOperationDraft | AnyOperation ? K : never
}[keyof T] &
  string

/**
 * One entry of a deferred outline, under the operation's name: the key of its definition in
 * what the loader gives, and the place field it fills when it fills one.
 */
export type DeferredOperation<T> =
  | OperationKey<T>
  | {
      operation: OperationKey<T>
      /** The same declaration (the same object, best) as the operation's own `placeField`. */
      placeField: PlaceFieldDeclaration
    }

const snakeCase = /^[a-z][a-z0-9_]*$/

/** What loaded does not match its outline: said with the source's id by loadOperations. */
class OutlineMismatch extends TypeError {}

/**
 * A source's operations as an outline and a loader, for `defineSource({ operations })`: the
 * operations' schemas, parsers and clients are then imported (with `import()`, which a bundler
 * makes a chunk of) when a request first reads them, not when the source is defined. A
 * serverless cold start that answers the source list, or one source's operation, then
 * evaluates none, or only that source's, code. Listing the sources, their operations by name
 * and the place bundle's fields needs only the outline.
 *
 * The outline is where each operation's name is written, once: its keys are the names, in
 * order, and each value is the key of that operation's definition in the object `load` gives
 * (type-checked against it), with its place field when it fills one. The definitions leave
 * `name` out (`defineOperation` takes them without it); a definition that does give one must
 * give the same. `load` is called once per definition, however many gateways serve it:
 * operations made there (with a memo of their upstream's answers) are shared by them all, as
 * operations made beside `defineSource` would be, and each call of a source's factory gets its
 * own. When what loads does not match the outline (a key it does not give, another place
 * field), every request that reads them answers 500 and the error names the difference;
 * `checkSource` catches it in a source's own tests.
 *
 * @example
 * // In a source's module, for defineSource({ …, operations }); its operations.ts exports
 * // export const harbourOperations = { listHarbours, harboursNear }, made with defineOperation
 * // and no name, which the loader imports: (await import('./operations.js')).harbourOperations
 * const operations = deferOperations(
 *   {
 *     list_harbours: 'listHarbours',
 *     harbours_near: { operation: 'harboursNear', placeField: harboursPlaceField },
 *   },
 *   async () => (await importOperations()).harbourOperations,
 * )
 */
export function deferOperations<T extends object>(
  outline: Record<string, DeferredOperation<T>>,
  load: () => Promise<T>,
): DeferredOperations
/**
 * The earlier form: the outline as a list of names (with place fields) and a loader giving
 * the named definitions in the same order.
 *
 * @deprecated Give the outline as an object keyed by the operations' names (see above), so
 * that each name is written once, in the outline, and not again in its definition.
 */
export function deferOperations(
  outline: readonly (string | OperationOutline)[],
  load: () => Promise<readonly AnyOperation[]>,
): DeferredOperations
export function deferOperations(
  outline:
    | readonly (string | OperationOutline)[]
    | Record<string, string | { operation: string; placeField: PlaceFieldDeclaration }>,
  load: () => Promise<unknown>,
): DeferredOperations {
  let loaded: Promise<readonly AnyOperation[]> | undefined
  if (Array.isArray(outline)) {
    return {
      outline: outline.map((entry) => (typeof entry === 'string' ? { name: entry } : entry)),
      load: () => (loaded ??= load() as Promise<readonly AnyOperation[]>),
    }
  }
  const entries = Object.entries(outline).map(([name, entry]) => {
    if (!snakeCase.test(name)) throw new TypeError(`Operation name "${name}" must be snake_case ([a-z][a-z0-9_]*)`)
    return typeof entry === 'string'
      ? { name, key: entry }
      : { name, key: entry.operation, placeField: entry.placeField }
  })
  return {
    outline: entries.map(({ name, placeField }) => (placeField ? { name, placeField } : { name })),
    load: () =>
      (loaded ??= (load() as Promise<Record<string, unknown>>).then((given) =>
        entries.map(({ name, key }) => named(given, key, name)),
      )),
  }
}

/** The definition under `key` in what a loader gave, named `name`. */
function named(given: Record<string, unknown>, key: string, name: string): AnyOperation {
  // Thrown as the loader's failure; loadOperations says which source's outline it is.
  const draft = given[key] as AnyOperationDraft | AnyOperation | undefined
  if (draft === null || typeof draft !== 'object' || typeof (draft as { run?: unknown }).run !== 'function') {
    throw new OutlineMismatch(`its outline names ${name} after the operation "${key}", which its loader does not give`)
  }
  if (draft.name !== undefined && draft.name !== name) {
    throw new OutlineMismatch(`its outline names the operation "${key}" ${name}, but its definition says ${draft.name}`)
  }
  return { ...draft, name } as AnyOperation
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
  const loaded = await source.operations.load().catch((error: unknown) => {
    throw error instanceof OutlineMismatch ? new TypeError(`Source ${source.id}: ${error.message}`) : error
  })
  const mismatch = outlineMismatch(source.operations.outline, loaded)
  if (mismatch) throw new TypeError(`Source ${source.id}: ${mismatch}`)
  return loaded
}
