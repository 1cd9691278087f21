import { createGetNearestWaterTemperatures } from './get-nearest-water-temperatures.js'
import { createGetWaterTemperatures } from './get-water-temperatures.js'

/** The operations of one `badetemp()` source with its Yr key (or none), keyed as its outline reads them: loaded when a request first reads them. */
export function badetempOperations(apiKey: string | undefined) {
  return {
    getNearestWaterTemperatures: createGetNearestWaterTemperatures(apiKey),
    getWaterTemperatures: createGetWaterTemperatures(apiKey),
  }
}
