export { statnett, type StatnettOptions } from './statnett/index.js'
