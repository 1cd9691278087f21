import type { IncomingMessage } from 'node:http'
import { fakeReply, type FakeReply, type FakeRoute } from '@allmenning/core/testing'

/** One GraphQL question a fake was posted, parsed. */
export interface GraphqlQuestion {
  query: string
  variables: Record<string, unknown>
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * graphql-java's way of saying a query or a variable is wrong: HTTP 200, `errors`, no `data`.
 *
 * @example
 * graphqlValidationError("Validation error (FieldUndefined@[stopPlace]) : Field 'stopPlace' in type 'QueryType' is undefined")
 */
export function graphqlValidationError(message: string): FakeReply {
  return fakeReply.json({
    errors: [{ message, locations: [{ line: 1, column: 28 }], extensions: { classification: 'ValidationError' } }],
  })
}

/**
 * graphql-java's answer to a non-null variable left out or sent as null.
 *
 * @example
 * missingVariable('id', 'String!') // 200 with errors: Variable 'id' has coerced Null value for NonNull type 'String!'
 */
export function missingVariable(name: string, type: string): FakeReply {
  return graphqlValidationError(
    `Variable '${name}' has an invalid value: Variable '${name}' has coerced Null value for NonNull type '${type}'`,
  )
}

/**
 * A `POST /graphql` route as Entur's GraphQL services answer it: another method is a 405, a
 * body that is not JSON a 400 with `errors` (not seen; an assumption), a question without a
 * query a 200 with `errors`; every question that parses is kept in `questions` and given to
 * `answer`.
 *
 * @example
 * const questions: GraphqlQuestion[] = []
 * startFakeUpstream({ '/graphql': graphqlRoute(questions, (q) => fakeReply.json({ data: { vehicles: [] } })) }, '/realtime/v2/vehicles')
 */
export function graphqlRoute(
  questions: GraphqlQuestion[],
  answer: (question: GraphqlQuestion) => FakeReply | Promise<FakeReply>,
): FakeRoute {
  return async (_url, req) => {
    if (req.method !== 'POST') return fakeReply.status(405, 'Method Not Allowed')
    let question: { query?: unknown; variables?: unknown }
    try {
      question = JSON.parse(await bodyOf(req)) as typeof question
    } catch {
      return fakeReply.json({ errors: [{ message: 'Invalid JSON payload in POST request.' }] }, { status: 400 })
    }
    if (typeof question.query !== 'string' || question.query.trim() === '') {
      return graphqlValidationError('Invalid syntax: the request holds no query')
    }
    const variables =
      question.variables && typeof question.variables === 'object'
        ? (question.variables as Record<string, unknown>)
        : {}
    const parsed = { query: question.query, variables }
    questions.push(parsed)
    return answer(parsed)
  }
}
