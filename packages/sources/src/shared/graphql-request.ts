import * as v from 'valibot'
import { checkUpstreamShape, UpstreamError, type UpstreamClient, type UpstreamResponse } from '@allmenning/core/source'

/** A GraphQL question: the query text and its variables. */
export interface GraphqlQuestion {
  query: string
  variables?: Record<string, unknown>
}

// What every GraphQL server answers: `data`, `errors`, or both (a partial answer).
const graphqlAnswer = v.looseObject({
  data: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
  errors: v.optional(v.nullable(v.array(v.looseObject({ message: v.optional(v.unknown()) })))),
})

function firstMessage(errors: { message?: unknown }[]): string {
  const message = errors.map((e) => (typeof e.message === 'string' ? e.message.trim() : '')).find((m) => m !== '')
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''
  // Only a bounded piece of the upstream's wording reaches the client.
  return message ? `${message.slice(0, 200)}${more}` : `${errors.length} error(s) without a message`
}

/**
 * POSTs a GraphQL question and gives its `data`. GraphQL servers report a query they cannot
 * answer with HTTP 200 (or 400) and an `errors` array instead of an error status: that, and an
 * answer without `data`, is thrown as an `UpstreamError` naming the upstream (a 502, or a stale
 * cached answer), never passed on as an empty result. A partial answer (`data` and `errors`)
 * counts as a failure too, since a field it left out would read as "nothing there".
 *
 * @example
 * const { data } = await postGraphql(client, '/graphql', { query: 'query($id: String!) { stopPlace(id: $id) { name } }', variables: { id: 'NSR:StopPlace:337' } }, { 'ET-Client-Name': 'example.no-allmenning' })
 */
export async function postGraphql(
  client: UpstreamClient,
  path: string,
  question: GraphqlQuestion,
  headers: Record<string, string> = {},
): Promise<{ data: Record<string, unknown>; response: UpstreamResponse<unknown> }> {
  const response = await client.postJson(
    path,
    { query: question.query, variables: question.variables ?? {} },
    { headers, acceptStatus: [400] },
  )
  const refused = response.status === 400
  const answer: v.InferOutput<typeof graphqlAnswer> =
    refused && response.body === undefined
      ? {}
      : checkUpstreamShape(client, graphqlAnswer, response.body, 'the GraphQL answer')
  if (answer.errors && answer.errors.length > 0) {
    const where = refused ? ' (HTTP 400)' : ' in an HTTP 200 answer'
    throw new UpstreamError(
      client,
      'status',
      `answered GraphQL errors${where}: ${firstMessage(answer.errors)}`,
      refused ? 400 : undefined,
    )
  }
  if (refused) throw new UpstreamError(client, 'status', 'refused the GraphQL query (HTTP 400)', 400)
  if (!answer.data)
    throw new UpstreamError(client, 'invalid_response', 'answered neither data nor errors to a GraphQL query')
  return { data: answer.data, response }
}
