import { getPhysicalFlow } from './get-physical-flow.js'
import { getPowerSituation } from './get-power-situation.js'
import { getPriceArea } from './get-price-area.js'
import { getProductionConsumption } from './get-production-consumption.js'

/** Statnett's operations, in the order of the source's outline: loaded when a request first reads them. */
export const statnettOperations = [getPhysicalFlow, getProductionConsumption, getPowerSituation, getPriceArea]
