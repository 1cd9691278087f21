// The Lambda example's handler in a process of its own, behind the local server that plays API
// Gateway (HTTP API, payload 2.0): a cold start, as a fresh Lambda container has one. Prints the
// `http://localhost:<port>/` it listens on, as the example servers do.
import { handler } from '../../examples/lambda/src/handler.js'
import { startLambdaEventServer, type LambdaEventHandler } from './lambda-event-server.js'

const server = await startLambdaEventServer(handler as LambdaEventHandler, { flavour: 'v2' })
console.log(`Lambda example (HTTP API) on ${server.url.replace('127.0.0.1', 'localhost')}/`)
