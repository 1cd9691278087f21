export { statnett, statnettBaseUrl, type StatnettOptions } from './statnett/index.js'
export { builtInSources, upstreamEnvironmentVariables } from './built-in-sources.js'
