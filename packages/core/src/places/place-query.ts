import * as v from 'valibot'
import { compileParameters } from '../compile/compile-parameters.js'
import { validateParameters } from '../routing/validate-parameters.js'
import type { PathParameter } from '../routing/define-route.js'
import { allSection, summarySection } from '../plugin/place-fields.js'
import type { PlaceProviders } from '../compile/place-providers.js'
import { placeSections, sectionFields } from '../compile/place-sections.js'

/** Query parameters of `/api/v1/steder/sok`. */
export const placeSearchQuery = {
  q: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200), v.description('An address or a place name.')),
  limit: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(20), v.description('Most places returned.')),
    10,
  ),
}

const fieldList = (text: string) =>
  text
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '')

/**
 * Query parameters of `/api/v1/steder/{lat}/{lon}`: `section` and `fields` take the sections
 * and fields this gateway's sources declare, so OpenAPI, the API index and a 400 list what it
 * really has.
 *
 * @example
 * placeBundleQuery(providers).section // picklist of summary, the sections the fields declare, and all
 */
export function placeBundleQuery(providers: PlaceProviders) {
  const sections = placeSections(providers)
  const names = [...providers.keys()]
  const sectionList = sections.map((section) => {
    const fields = sectionFields(providers, section)
    return section === allSection ? `${section} (every field)` : `${section} (${fields.join(', ') || 'no field'})`
  })
  const fieldNotes = [...providers.values()].map(
    ({ field }) => `${field.name} (${field.section}): ${field.description}`,
  )
  return {
    section: v.optional(
      v.pipe(
        v.picklist(sections),
        v.description(
          `One data category; summary (small) by default, all (every field) only when asked for: ${sectionList.join('; ')}.`,
        ),
      ),
      summarySection,
    ),
    fields: v.optional(
      v.pipe(
        v.string(),
        v.check(
          (text) => fieldList(text).length > 0 && fieldList(text).every((f) => providers.has(f)),
          names.length > 0
            ? `must be a comma-separated list of: ${names.join(', ')}`
            : 'names no field this gateway has: none of its sources fills a place field',
        ),
        v.description(
          `Comma-separated fields to fetch instead of a section: ${names.join(', ')}. ${fieldNotes.join(' ')}`,
        ),
      ),
    ),
  }
}

/** The query parameters of `/api/v1/steder/{lat}/{lon}` on one gateway. */
export type PlaceBundleQuery = ReturnType<typeof placeBundleQuery>

/** The requested fields, without repeats, in the order given. */
export function requestedFields(fields: string): string[] {
  return [...new Set(fieldList(fields))]
}

/** The path parameters of `/api/v1/steder/{lat}/{lon}`, as numbers in WGS84 degrees. */
const coordinates = compileParameters({
  lat: v.pipe(v.number(), v.minValue(-90), v.maxValue(90), v.description('WGS84 latitude, -90..90')),
  lon: v.pipe(v.number(), v.minValue(-180), v.maxValue(180), v.description('WGS84 longitude, -180..180')),
})

/** JSON Schemas of the two path parameters, for OpenAPI: made when first described, not at import. */
export const coordinateSchemas: Record<string, PathParameter> = Object.fromEntries(
  coordinates.map((p) => [
    p.name,
    {
      description: p.description ?? p.name,
      get schema() {
        return p.jsonSchema
      },
    },
  ]),
)

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
