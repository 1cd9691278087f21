import * as v from 'valibot'
import { UpstreamError } from '../http/upstream-error.js'

/**
 * Checks an upstream payload against the shape a source expects. A mismatch is the
 * upstream's doing, so it is a 502 naming the upstream and where the shape broke, never a
 * crash in the mapping code that follows.
 *
 * @example
 * const rows = checkUpstreamShape(client, v.array(flowRow), res.body, 'the physical flow')
 */
export function checkUpstreamShape<S extends v.GenericSchema>(
  upstream: { id: string; name: string },
  schema: S,
  body: unknown,
  what: string,
): v.InferOutput<S> {
  // The first issue is all the message uses; collecting every issue of a huge wrong-shaped
  // body would keep the event loop busy for nothing.
  const result = v.safeParse(schema, body, { abortEarly: true })
  if (result.success) return result.output
  const issue = result.issues[0]
  const path = issue ? v.getDotPath(issue) : null
  throw new UpstreamError(
    upstream,
    'invalid_response',
    `answered ${what} in an unexpected shape${path ? ` (at ${path})` : ''}`,
  )
}
