export { createFetchHandler, type FetchHandler, type FetchHandlerOptions } from './create-fetch-handler.js'
