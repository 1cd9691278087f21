import { pointParameters } from '../shared/wgs84-point.js'

/**
 * `lat` and `lon` of the air-quality operations: three decimals, a cell of about 110 m,
 * smaller than the grunnkrets MET forecasts for and within MET's four-decimal limit.
 */
export const airPoint = pointParameters(3)
