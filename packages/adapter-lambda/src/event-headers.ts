import type { GatewayRequest } from '@allmenning/core'

type MultiValueHeaders = Record<string, string[] | undefined> | null | undefined
type SingleValueHeaders = Record<string, string | undefined> | null | undefined

/**
 * Builds the core's header map from the two shapes v1 and ALB events carry. The multi-value
 * map wins because the single-value one keeps only the last of repeated headers. Names are
 * lower-cased and merged, since the client's casing (kept by API Gateway v1) may differ
 * between two lines of the same header.
 *
 * @example
 * collectEventHeaders({ 'X-Tag': ['a', 'b'] }, { 'X-Tag': 'b' }) // { 'x-tag': ['a', 'b'] }
 */
export function collectEventHeaders(multi: MultiValueHeaders, single: SingleValueHeaders): GatewayRequest['headers'] {
  const lists = new Map<string, string[]>()
  const add = (name: string, values: string[]) => {
    const key = name.toLowerCase()
    const list = lists.get(key)
    if (list) list.push(...values)
    else lists.set(key, [...values])
  }
  if (multi && Object.keys(multi).length > 0) {
    for (const [name, values] of Object.entries(multi)) if (values) add(name, values)
  } else if (single) {
    for (const [name, value] of Object.entries(single)) if (value !== undefined) add(name, [value])
  }
  const headers: GatewayRequest['headers'] = {}
  for (const [name, values] of lists) {
    if (values.length > 0) headers[name] = values.length === 1 ? values[0] : values
  }
  return headers
}
