export { statnett, statnettBaseUrl, type StatnettOptions } from './statnett/index.js'
export { avinor, type AvinorOptions } from './avinor/index.js'
export { firmafakta, firmafaktaBaseUrl, type FirmafaktaOptions } from './firmafakta/index.js'
export { builtInSources, upstreamEnvironmentVariables } from './built-in-sources.js'
