import { descriptorMaxAge } from '../describe/descriptors.js'
import { defineRoute, type RouteCall, type RouteDefinition } from '../routing/define-route.js'
import { GatewayError } from '../http/gateway-error.js'
import type { GatewayResponse } from '../http/gateway-request.js'
import { jsonResponse } from '../http/json-response.js'
import type { Catalog } from '../compile/catalog.js'
import { feedbackJsonSchema, parseFeedback, type Feedback } from './feedback.js'

/** What the feedback route is made from: its slice of the gateway's context. */
export interface FeedbackContext {
  catalog: Catalog
  /** The `onFeedback` option (its default logs), and `onError`, which hears it fail. */
  resolved: {
    onFeedback(feedback: Feedback): void | Promise<void>
    onError(error: unknown, kind: 'feedback'): void
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value
}

/**
 * `/feedback`: a POST hands the feedback, checked, to the `onFeedback` option and answers 202;
 * a GET tells how to send it.
 */
export function feedbackRoute({ catalog, resolved }: FeedbackContext): RouteDefinition {
  async function receive({ request, links }: RouteCall): Promise<GatewayResponse> {
    const body = request.readBody ? await request.readBody() : undefined
    const headers = {
      contentType: headerValue(request.headers['content-type']),
      contentLength: headerValue(request.headers['content-length']),
    }
    const feedback = parseFeedback(body, headers, catalog)
    try {
      await resolved.onFeedback(feedback)
    } catch (error) {
      resolved.onError(error, 'feedback')
      throw new GatewayError(500, 'internal_error', 'The feedback could not be recorded; please try again later')
    }
    return jsonResponse(
      202,
      { status: 'accepted', feedback, _links: { api_index: links.index() } },
      { 'cache-control': 'no-store' },
    )
  }
  return defineRoute({
    name: 'feedback',
    path: '/feedback',
    summary: 'Send feedback about the gateway, a source or an operation (POST); GET tells how',
    description:
      'A POST with a JSON body hands the feedback, checked, to the operators and answers 202 Accepted. A GET answers how to send it, with the JSON Schema of the body.',
    tag: 'Feedback',
    methods: ['GET', 'HEAD', 'POST'],
    get requestBody() {
      return feedbackJsonSchema()
    },
    staticMaxAgeSeconds: descriptorMaxAge,
    answer: (call) =>
      call.method === 'POST'
        ? receive(call)
        : {
            method: 'POST',
            url: call.links.to('feedback'),
            content_type: 'application/json',
            body_schema: feedbackJsonSchema(),
            answer: '202 Accepted with the feedback as received',
            _links: { self: call.links.to('feedback'), api_index: call.links.index() },
          },
  })
}
