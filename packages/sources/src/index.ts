export { statnett, statnettApi } from './statnett/index.js'
export { avinor, avinorApi } from './avinor/index.js'
export { firmafakta, brreg } from './firmafakta/index.js'
export { builtInSources } from './built-in-sources.js'
