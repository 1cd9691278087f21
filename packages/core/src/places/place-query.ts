import * as v from 'valibot'
import { compileParameters } from '../compile/compile-parameters.js'
import { validateParameters } from '../http/validate-parameters.js'
import { selectablePlaceFields, type PlaceField } from '../plugin/place-fields.js'
import { placeSections } from './place-sections.js'

/** Query parameters of `/api/v1/steder/sok`. */
export const placeSearchQuery = {
  q: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200), v.description('An address or a place name.')),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(20), v.description('Most places returned.')), 10),
}

const fieldList = (text: string) => text.split(',').map((f) => f.trim()).filter((f) => f !== '')

/** Query parameters of `/api/v1/steder/{lat}/{lon}`. */
export const placeBundleQuery = {
  section: v.optional(
    v.pipe(v.picklist(placeSections), v.description('One data category; summary (small) by default, all (every field) only when asked for.')),
    'summary',
  ),
  fields: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (text) => fieldList(text).length > 0 && fieldList(text).every((f) => (selectablePlaceFields as readonly string[]).includes(f)),
        `must be a comma-separated list of: ${selectablePlaceFields.join(', ')}`,
      ),
      v.description(`Comma-separated fields to fetch instead of a section: ${selectablePlaceFields.join(', ')}.`),
    ),
  ),
}

/** The requested fields, without repeats, in the order given. */
export function requestedFields(fields: string): PlaceField[] {
  return [...new Set(fieldList(fields))] as PlaceField[]
}

/** The path parameters of `/api/v1/steder/{lat}/{lon}`, as numbers in WGS84 degrees. */
const coordinates = compileParameters({
  lat: v.pipe(v.number(), v.minValue(-90), v.maxValue(90), v.description('WGS84 latitude, -90..90')),
  lon: v.pipe(v.number(), v.minValue(-180), v.maxValue(180), v.description('WGS84 longitude, -180..180')),
})

/** JSON Schemas of the two path parameters, for OpenAPI. */
export const coordinateSchemas = Object.fromEntries(coordinates.map((p) => [p.name, { description: p.description ?? p.name, schema: p.jsonSchema }]))

/**
 * Reads `lat` and `lon` from the path: a number with a decimal point or comma, within its
 * bounds, or a 400 naming the parameter and the bound.
 *
 * @example
 * parseCoordinates({ lat: '59,9139', lon: '10.7522' }) // { lat: 59.9139, lon: 10.7522 }
 */
export function parseCoordinates(path: Record<string, string>): { lat: number; lon: number } {
  const query = new Map([
    ['lat', [path.lat ?? '']],
    ['lon', [path.lon ?? '']],
  ])
  return validateParameters(query, coordinates) as { lat: number; lon: number }
}
