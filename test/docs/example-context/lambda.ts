/** Names the Lambda examples may use without declaring them, beside those of `everywhere.ts`. */
import type { LambdaEvent, LambdaHandler } from '@allmenning/adapter-lambda'
import type { ALBEvent, APIGatewayProxyEvent, APIGatewayProxyEventV2 } from 'aws-lambda'

/** An event of any kind the handler takes; the others are one kind each. */
export declare const event: LambdaEvent
export declare const albEvent: ALBEvent
export declare const httpApiEvent: APIGatewayProxyEventV2
export declare const restApiEvent: APIGatewayProxyEvent
export declare const handler: LambdaHandler
