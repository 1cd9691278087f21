/**
 * Names the examples of source code and of the core (an operation's `run`, an upstream's
 * client, what the core builds answers from) may use without declaring them, beside those of
 * `everywhere.ts`: `ctx` is the operation's context, `client` an upstream's client, `res`
 * its answer, `links`, `host` and `dataset` what their types say.
 */
import type {
  DatasetDefinition,
  EntitySearch,
  OperationContext,
  OperationDraft,
  PlaceFieldDeclaration,
  UpstreamClient,
  UpstreamResponse,
} from '@allmenning/core/source'
import type { ExtensionHost, Links } from '@allmenning/core/extension'

export declare const ctx: OperationContext
export declare const client: UpstreamClient
export declare const res: UpstreamResponse<unknown>
/** The gateway's links, as the core hands them to descriptors, extensions and envelopes. */
export declare const links: Links
/** What an extension (MCP) is given of the gateway. */
export declare const host: ExtensionHost
export declare const dataset: DatasetDefinition

/** The source of docs/source-api.md turns MET's payload into these rows (its own code, not shown). */
export declare function toHours(body: unknown): { time: string; air_temperature: number | null }[]

/** A source's module of operations, which the source itself imports with `import('./operations.js')` (see deferOperations). */
export declare function importOperations(): Promise<{
  harbourOperations: { listHarbours: OperationDraft; harboursNear: OperationDraft }
}>
/** The place field a source's operation fills, declared in a small module its source and operations both import. */
export declare const harboursPlaceField: PlaceFieldDeclaration

/** A source's entity-search module, which the source itself imports with `import('./entity-search.js')` (see deferEntitySearch). */
export declare function importStationSearch(): Promise<{ stationSearch: EntitySearch }>
