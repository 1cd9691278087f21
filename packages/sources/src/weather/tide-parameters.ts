import * as v from 'valibot'
import { pointParameters } from '../shared/wgs84-point.js'

/**
 * The vertical datums Kartverket gives levels against. Chart datum (sjøkartnull, about the
 * lowest astronomical tide) is what Norwegian tide tables and charts print, so it is the default.
 */
export const datumParameter = v.optional(
  v.pipe(
    v.picklist(['cd', 'msl', 'nn2000']),
    v.description(
      'Vertical datum of the levels: cd (chart datum, sjøkartnull: what tide tables and sea charts use; the default), ' +
        'msl (mean sea level, middelvann) or nn2000 (the national height system NN2000)',
    ),
  ),
  'cd',
)

/** Names of the datums, as each row's `datum` says them. */
export const datumNote =
  'Levels are in cm above the datum each row names (CD: chart datum/sjøkartnull by default; MSL: mean sea level; NN2000: the national height system).'

/**
 * What the tide operations say of a point Kartverket has no sea level for, as the point
 * operations of the other sources do (an air-quality forecast outside Norway, a price area at
 * sea): an empty answer, not an error, so a places bundle for a point inland is not a failure.
 */
export const noDataNote =
  'A point Kartverket has no sea level for (inland, far out at sea, abroad) answers an empty list, with Kartverket’s reason in _raw_values.no_data.'

/** `_raw_values` of such an answer. */
export const noDataRaw = (reason: string) => ({ no_data: `Kartverket: ${reason}`, reference_level: null })

/** `lat` and `lon` of the tide operations: Kartverket's tidal zones are kilometres wide, so a cell of about 110 m loses nothing. */
export const tidePoint = pointParameters(3)

/** What `_raw_values` says of the place Kartverket answered for. */
export function rawLocation(
  location: {
    name: string | null
    code: string | null
    obscode: string | null
    delay: number | null
    factor: number | null
  },
  referenceLevel: string,
) {
  return {
    reference_level: referenceLevel,
    location_name: location.name,
    location_code: location.code,
    reference_gauge: location.obscode,
    delay_minutes: location.delay,
    amplitude_factor: location.factor,
  }
}
