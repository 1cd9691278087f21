import * as v from 'valibot'
import type { Catalog } from '../compile/catalog.js'
import { GatewayError } from '../http/gateway-error.js'
import { toJsonSchema2020, type JsonSchema } from '../compile/json-schema.js'
import { bodyText, checkParsedBodySize } from '../http/read-request-body.js'

/** What a client may send to `POST /api/v1/feedback`. */
export const feedbackSchema = v.strictObject({
  message: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1),
    v.maxLength(2000),
    v.description('What is wrong, missing or good; required.'),
  ),
  source: v.optional(v.pipe(v.string(), v.description('Id of the source the feedback is about.'))),
  operation: v.optional(
    v.pipe(v.string(), v.description('Operation of that source the feedback is about; needs source.')),
  ),
  contact: v.optional(
    v.pipe(v.string(), v.maxLength(200), v.description('How to reach the sender, if they want an answer.')),
  ),
})

/** Feedback as handed to the `onFeedback` option. */
export type Feedback = v.InferOutput<typeof feedbackSchema> & { received_at: string }

let bodyJsonSchema: JsonSchema | undefined

/** The JSON Schema of a feedback body, made when first described (not with every gateway). */
export function feedbackJsonSchema(): JsonSchema {
  return (bodyJsonSchema ??= toJsonSchema2020(feedbackSchema))
}

function bodyError(problem: string, parameter = 'body', rule = 'json'): GatewayError {
  return new GatewayError(400, 'invalid_body', `Invalid feedback: ${parameter} ${problem}`, {
    details: [{ parameter, problem, rule }],
  })
}

/**
 * Reads and validates a feedback body: raw JSON bytes or text, or a value a body parser
 * already produced. Names the field and the rule on any problem.
 */
export function parseFeedback(
  body: unknown,
  headers: { contentType?: string; contentLength?: string },
  catalog: Catalog,
): Feedback {
  const contentType = headers.contentType
  let value = body
  // A host's parser read it under its own, larger limit; ours holds all the same.
  if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array))
    checkParsedBodySize(body, headers.contentLength)
  if (typeof body === 'string' || body instanceof Uint8Array) {
    if (!/\bjson\b/i.test(contentType ?? '')) {
      throw new GatewayError(415, 'unsupported_media_type', 'Feedback must be sent as application/json', {
        details: [{ parameter: 'content-type', problem: 'must be application/json', rule: 'media_type' }],
      })
    }
    const text = bodyText(body)
    try {
      value = JSON.parse(text)
    } catch {
      throw bodyError('must be valid JSON')
    }
  }
  if (value === undefined) throw bodyError('is required: a JSON object with at least "message"', 'body', 'required')
  const result = v.safeParse(feedbackSchema, value)
  if (!result.success) {
    const details = result.issues.map((issue) => ({
      parameter: issue.path?.map((p) => String(p.key)).join('.') || 'body',
      problem: issue.message,
      rule: issue.type,
    }))
    throw new GatewayError(
      400,
      'invalid_body',
      `Invalid feedback: ${details.map((d) => `${d.parameter}: ${d.problem}`).join('; ')}`,
      { details },
    )
  }
  const feedback = result.output
  if (feedback.operation !== undefined && feedback.source === undefined) {
    throw bodyError('needs "source" as well', 'operation', 'requires')
  }
  if (feedback.source !== undefined && !catalog.has(feedback.source)) {
    throw bodyError(`names no known source (${catalog.sources.map((s) => s.id).join(', ')})`, 'source', 'enum')
  }
  if (
    feedback.source !== undefined &&
    feedback.operation !== undefined &&
    !catalog.source(feedback.source).outline.some((o) => o.name === feedback.operation)
  ) {
    throw bodyError(`is not an operation of ${feedback.source}`, 'operation', 'enum')
  }
  return { ...feedback, received_at: new Date().toISOString() }
}
