/**
 * Names the examples of source code (an operation's `run`, an upstream's client) may use
 * without declaring them, beside those of `everywhere.ts`: `ctx` is the operation's context,
 * `client` an upstream's client, `res` its answer.
 */
import type { OperationContext, UpstreamClient, UpstreamResponse } from '@allmenning/core'

export declare const ctx: OperationContext
export declare const client: UpstreamClient
export declare const res: UpstreamResponse<unknown>

/** The README's source turns MET's payload into these rows (its own code, not shown). */
export declare function toHours(body: unknown): { time: string; air_temperature: number | null }[]
