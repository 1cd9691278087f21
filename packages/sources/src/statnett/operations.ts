import { getPhysicalFlow } from './get-physical-flow.js'
import { getPowerSituation } from './get-power-situation.js'
import { getPriceArea } from './get-price-area.js'
import { getProductionConsumption } from './get-production-consumption.js'

/** Statnett's operations, keyed as the source's outline reads them: loaded when a request first reads them. */
export const statnettOperations = { getPhysicalFlow, getProductionConsumption, getPowerSituation, getPriceArea }
