export {
  createLambdaHandler,
  type LambdaHandler,
  type LambdaHandlerOptions,
  type LambdaEvent,
  type LambdaResult,
} from './create-lambda-handler.js'
