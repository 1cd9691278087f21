import type { Gateway } from '@allmenning/core'
import { normalizeMountPath } from '@allmenning/core/adapter'
import type {
  ALBEvent,
  ALBResult,
  APIGatewayProxyEvent,
  APIGatewayProxyEventV2,
  APIGatewayProxyResult,
  APIGatewayProxyStructuredResultV2,
} from 'aws-lambda'
import { fromAlbEvent, toAlbResult } from './alb-event.js'
import { fromHttpApiEvent, toHttpApiResult } from './http-api-event.js'
import { fromRestApiEvent, toRestApiResult } from './rest-api-event.js'

/**
 * Options of {@link createLambdaHandler}.
 *
 * @example
 * const options: LambdaHandlerOptions = { basePath: '/gw' } // https://data.example.no/gw/api/…
 */
export interface LambdaHandlerOptions {
  /**
   * Base path of an API Gateway custom-domain mapping (or an ALB listener rule) the gateway
   * is served under, e.g. `/data`. Stripped per segment, after the stage. Default: none.
   */
  basePath?: string
}

/**
 * Every event shape the handler understands.
 *
 * @example
 * const result = await handler(event as LambdaEvent)
 */
export type LambdaEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2 | ALBEvent

/**
 * Every result shape the handler returns.
 *
 * @example
 * const result: LambdaResult = await handler(event)
 */
export type LambdaResult = APIGatewayProxyResult | APIGatewayProxyStructuredResultV2 | ALBResult

/**
 * A Lambda handler that answers each event source with that source's own result type.
 * `context` is accepted and ignored, so the function fits the `Handler` types of aws-lambda.
 *
 * @example
 * const handler: LambdaHandler = createLambdaHandler(gateway)
 * const result = await handler(albEvent) // typed as ALBResult
 */
export interface LambdaHandler {
  (event: ALBEvent, context?: unknown): Promise<ALBResult>
  (event: APIGatewayProxyEventV2, context?: unknown): Promise<APIGatewayProxyStructuredResultV2>
  (event: APIGatewayProxyEvent, context?: unknown): Promise<APIGatewayProxyResult>
  (event: LambdaEvent, context?: unknown): Promise<LambdaResult>
}

/**
 * Serves an Allmenning gateway from AWS Lambda behind API Gateway REST APIs (payload 1.0),
 * HTTP APIs (payload 2.0, named stages and `$default`) or an Application Load Balancer
 * (with or without multi-value headers). Paths the gateway does not own get its own 404:
 * a Lambda has no `next` to fall back to.
 *
 * @example
 * import { Keyv } from 'keyv'
 * import { createGateway } from '@allmenning/core'
 * import { createLambdaHandler } from '@allmenning/adapter-lambda'
 *
 * const gateway = createGateway({ sources, cache: new Keyv() })
 * export const handler = createLambdaHandler(gateway)
 * // behind a custom domain mapped at https://data.example.no/gw:
 * // export const handler = createLambdaHandler(gateway, { basePath: '/gw' })
 */
export function createLambdaHandler(gateway: Gateway, options: LambdaHandlerOptions = {}): LambdaHandler {
  const basePath = normalizeMountPath(options.basePath)
  async function handle(event: LambdaEvent): Promise<LambdaResult> {
    if (isAlbEvent(event)) {
      const response = await gateway.handle(fromAlbEvent(event, basePath))
      return toAlbResult(response, event.multiValueHeaders !== undefined)
    }
    if (isHttpApiEvent(event)) {
      return toHttpApiResult(await gateway.handle(fromHttpApiEvent(event, basePath)))
    }
    return toRestApiResult(await gateway.handle(fromRestApiEvent(event, basePath)))
  }
  return handle as LambdaHandler
}

function isAlbEvent(event: LambdaEvent): event is ALBEvent {
  const context: unknown = event.requestContext
  return typeof context === 'object' && context !== null && 'elb' in context
}

function isHttpApiEvent(event: LambdaEvent): event is APIGatewayProxyEventV2 {
  const context: unknown = event.requestContext
  return (
    'version' in event &&
    event.version === '2.0' &&
    typeof context === 'object' &&
    context !== null &&
    'http' in context
  )
}
