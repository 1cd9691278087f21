/**
 * Names a code example in the README, docs/ or a JSDoc `@example` may use without declaring
 * them: what the reader's own program has by then (a gateway, its sources, a logger) and the
 * few library functions examples call by their usual names. The examples' check
 * (`test/docs/code-examples.test.ts`) imports them where an example uses them; nothing runs
 * this file. A name that is not here, not exported by a workspace package and not imported
 * by the file a JSDoc example documents must be declared by the example itself, unless it is
 * plain data (never called, constructed or used as a type), which the check takes as `any`.
 */
import type { ErrorKind, GatewayRequest, GatewayResponse, LocalGateway } from '@allmenning/core'
import type { SourceDefinition } from '@allmenning/core/source'

/** What `createGateway` returns. */
export declare const gateway: LocalGateway
export declare const sources: SourceDefinition[]
/** A request as an adapter hands it to `gateway.handle`. */
export declare const request: GatewayRequest
export declare const response: GatewayResponse
export declare const logger: { error(error: unknown): void; warn(message: string): void; info(message: string): void }
export declare const log: typeof logger
/** The gateway's `onError` option, as the host app gives it. */
export declare const onError: (error: unknown, kind?: ErrorKind) => void
/** The host framework's next middleware. */
export declare const next: () => Promise<void> | void

export * as v from 'valibot'
export { Keyv } from 'keyv'
export { expect } from 'vitest'
export { createReadStream } from 'node:fs'
export { createServer } from 'node:http'
export { Readable } from 'node:stream'
export { createGunzip } from 'node:zlib'
