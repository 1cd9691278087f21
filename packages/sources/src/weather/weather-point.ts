import { pointParameters } from '../shared/wgs84-point.js'

/**
 * `lat` and `lon` of the weather operations. Three decimals is a cell of about 110 m: finer
 * than MET's 1 km forecast grid, coarser than its four-decimal limit, and shared by everyone
 * asking about the same street.
 */
export const weatherPoint = pointParameters(3)
