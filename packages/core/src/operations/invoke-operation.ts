import { createLruMap } from '../util/lru-map.js'
import type { Catalog } from '../compile/catalog.js'
import { outcomeValue } from '../pipeline/cached-answer.js'
import { GatewayError, type ErrorCode, type ProblemDetail } from '../http/gateway-error.js'
import type { Links } from '../http/links.js'
import { validateValues } from '../routing/validate-parameters.js'
import type { OperationEnvelope } from '../pipeline/envelope.js'
import {
  findOperationAnswer,
  operationCacheKey,
  type OperationCall,
  type OperationCallDeps,
} from '../pipeline/operation-call.js'

/**
 * An operation's answer as a caller in the process gets it: the envelope (or, for a
 * remembered 404, the error body) as a value, with the JSON its GET answers with.
 */
export interface OperationAnswer {
  status: 200 | 404
  /** Shared with every caller that gets the same cached answer: read-only. */
  value: unknown
  body: string
}

/** Calls one operation of a source in process; see `Gateway.invoke`. */
export type InvokeOperation = (
  source: string,
  operation: string,
  params: Readonly<Record<string, unknown>>,
  links: Links,
) => Promise<OperationEnvelope>

/** The error a remembered 404 stands for, as the operation threw it the first time. */
export function notFoundError(body: unknown): GatewayError {
  const { error } = body as { error: { code: ErrorCode; message: string; details?: ProblemDetail[] } }
  return new GatewayError(404, error.code, error.message, { details: error.details ?? [] })
}

/**
 * The text that tells apart calls with different parameters, when every value is plain (text,
 * a finite number, a flag, or left out); otherwise none, and the call is not remembered.
 */
function plainKey(params: Readonly<Record<string, unknown>>): string | undefined {
  for (const name in params) {
    const value = params[name]
    const plain =
      value === undefined ||
      value === null ||
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value))
    if (!plain) return undefined
  }
  return JSON.stringify(params)
}

/**
 * The in-process call of an operation: the parameters validated as values by the same
 * compiled schemas its route uses, then the same cache key, hot cache, store and single
 * flight as its GET, without a query string to write and read or JSON to parse. A hit costs no
 * `JSON.parse`: the envelope is kept beside the cached bytes.
 *
 * @example
 * const { invoke } = createOperationInvoker(catalog, deps)
 * const envelope = await invoke('statnett', 'get_physical_flow', { area: 'NO1' }, links)
 */
export function createOperationInvoker(catalog: Catalog, deps: OperationCallDeps) {
  // Calls already checked, by source, operation, link base and parameters: a repeated call
  // (a tool called again, a field of another bundle at the same point) is not validated again,
  // as a repeated GET is not.
  const prepared = createLruMap<string, OperationCall>(1000)

  /**
   * The call as its route would make it: a 404 for an unknown source or operation, a 400
   * naming each bad parameter. `check` runs between the two (an extension's query-length
   * limit), for a call not remembered with the same check.
   */
  function prepare(
    sourceId: string,
    name: string,
    params: Readonly<Record<string, unknown>>,
    links: Links,
    check?: () => void,
  ): OperationCall {
    const plain = plainKey(params)
    const id =
      plain === undefined
        ? undefined
        : `${check ? 'checked' : ''}\u0000${sourceId}\u0000${name}\u0000${links.apiRoot}\u0000${plain}`
    const known = id === undefined ? undefined : prepared.get(id)
    if (known) return known
    const { source, operation } = catalog.operation(sourceId, name)
    check?.()
    const parameters = validateValues(params, operation.parameters, operation.ignoredParameters)
    const call = {
      source,
      operation,
      parameters,
      links,
      key: operationCacheKey(source, operation, parameters, links),
      inProcess: true,
    }
    if (id !== undefined) prepared.set(id, call)
    return call
  }

  /** The answer with its bytes, as an extension hands it on; a remembered 404 comes back as an answer. */
  function answer(call: OperationCall): OperationAnswer | Promise<OperationAnswer> {
    const outcome = findOperationAnswer(deps, call)
    return outcome instanceof Promise ? outcome.then(outcomeValue) : outcomeValue(outcome)
  }

  const invoke: InvokeOperation = async (sourceId, name, params, links) => {
    // A source whose operations are deferred is loaded by the first call that reads it.
    const loading = catalog.has(sourceId) ? catalog.load([sourceId]) : undefined
    if (loading) await loading
    const found = await answer(prepare(sourceId, name, params, links))
    // A remembered 404 is an answer to a client; to a caller in process it is the error it stands for.
    if (found.status === 404) throw notFoundError(found.value)
    return found.value as OperationEnvelope
  }

  return { prepare, answer, invoke }
}
