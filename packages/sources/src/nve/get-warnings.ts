import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { checkUpstreamShape, defineOperation, type OperationContext } from '@allmenning/core/source'
import { municipalityOfPoint, type PointMunicipality } from '../geonorge/municipality-of-point.js'
import { pointParameters } from '../shared/wgs84-point.js'
import { nveAvalanche, nveFlood, nveLandslide } from './nve-upstreams.js'
import { osloDate } from '../shared/oslo-time.js'
import { avalancheWarnings, hydroWarnings } from './upstream-shapes.js'
import {
  avalancheToWarning,
  HAZARDS,
  hydroToWarning,
  warningOutput,
  type Hazard,
  type Warning,
} from './warning-mapping.js'
import { hazardWarningsPlaceField } from './place-fields.js'

// Varsom's language keys: 1 Norwegian, 2 English (the keys its clients send; its docs name no others).
const LANGUAGE_KEYS = { no: 1, en: 2 } as const

const { lat, lon } = pointParameters(3)

const dateParameter = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d\d-\d\d$/, 'must be a date, YYYY-MM-DD'),
  v.check(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    'must be a real calendar date',
  ),
  v.description("The day, YYYY-MM-DD; today in Norway when left out (Varsom's days are Norwegian calendar days)"),
)

/** Where the warnings are asked for, once the parameters are read. */
type Place =
  | { kind: 'county'; county: string }
  | { kind: 'municipality'; county: string; municipality: string }
  | { kind: 'point'; lat: number; lon: number }

function invalid(parameter: string, problem: string, rule: string): GatewayError {
  return new GatewayError(400, 'invalid_parameter', `Invalid parameter: ${parameter} ${problem}`, {
    details: [{ parameter, problem, rule }],
  })
}

function placeOf(params: { county?: string; municipality?: string; lat?: number; lon?: number }): Place {
  const given = [
    params.county !== undefined,
    params.municipality !== undefined,
    params.lat !== undefined || params.lon !== undefined,
  ].filter(Boolean).length
  if (given === 0) throw invalid('municipality', 'or county, or lat and lon, is required', 'required')
  if (given > 1)
    throw invalid('municipality', 'cannot be combined with county or lat/lon: give one of them', 'exclusive')
  if (params.lat !== undefined || params.lon !== undefined) {
    if (params.lat === undefined) throw invalid('lat', 'is required with lon', 'required')
    if (params.lon === undefined) throw invalid('lon', 'is required with lat', 'required')
    return { kind: 'point', lat: params.lat, lon: params.lon }
  }
  if (params.municipality !== undefined)
    return { kind: 'municipality', county: params.municipality.slice(0, 2), municipality: params.municipality }
  return { kind: 'county', county: params.county! }
}

const segment = (value: string | number) => encodeURIComponent(String(value))

async function hydroWarningsFor(
  ctx: OperationContext,
  hazard: 'flood' | 'landslide',
  county: string,
  municipality: string | undefined,
  lang: number,
  date: string,
) {
  const client = ctx.upstream(hazard === 'flood' ? nveFlood : nveLandslide)
  const response = await client.getJson(`/Warning/County/${segment(county)}/${lang}/${date}/${date}`)
  const warnings = checkUpstreamShape(client, hydroWarnings, response.body ?? [], `the ${hazard} warnings`).map((w) =>
    hydroToWarning(hazard, w),
  )
  return municipality ? warnings.filter((w) => w.municipalities.some((m) => m.number === municipality)) : warnings
}

async function avalancheWarningsFor(ctx: OperationContext, place: Place, lang: number, date: string) {
  const client = ctx.upstream(nveAvalanche)
  if (place.kind === 'point') {
    const response = await client.getJson(
      `/AvalancheWarningByCoordinates/Simple/${segment(place.lat)}/${segment(place.lon)}/${lang}/${date}/${date}`,
    )
    return checkUpstreamShape(
      client,
      avalancheWarnings,
      response.body ?? [],
      'the avalanche warnings for the point',
    ).map(avalancheToWarning)
  }
  // Unverified: that /Warning/All answers the Detail shape, whose counties and municipalities
  // this filters by. A warning without them is left out rather than guessed at.
  const response = await client.getJson(`/Warning/All/${lang}/${date}/${date}`)
  const all = checkUpstreamShape(client, avalancheWarnings, response.body ?? [], 'the avalanche warnings').map(
    avalancheToWarning,
  )
  return all.filter((w) =>
    place.kind === 'county'
      ? w.counties.some((c) => c.number === place.county)
      : w.municipalities.some((m) => m.number === place.municipality),
  )
}

const hazardOrder = (h: Hazard) => HAZARDS.indexOf(h)

/**
 * `get_warnings`: Varsom's flood, landslide and avalanche warnings for a municipality, a county
 * or a point, for one day. A point is placed in its municipality (the nearest address in
 * Kartverket's register) for flood and landslide, and in its avalanche region by Varsom itself.
 *
 * @example
 * // GET /api/v1/kilder/nve/get_warnings?lat=60.391&lon=5.322
 * // { date: '2026-01-14', location: { municipality: '4601', county: '46', ... }, highest_level: { flood: 1, landslide: 2, avalanche: null }, warnings: [...] }
 */
export const getWarnings = defineOperation({
  description:
    "NVE's flood, landslide and avalanche warnings from Varsom for one day, for a municipality, a county or a WGS84 point: " +
    'level (flood and landslide 1–4 green–red, avalanche 1–5), texts, validity and the areas each covers. A point is placed ' +
    'in the municipality of its nearest address (Kartverket) for flood and landslide, and in its avalanche region by Varsom.',
  parameters: {
    municipality: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\d{4}$/, 'must be four digits, e.g. 4601'),
        v.description('Municipality number (kommunenummer), four digits'),
      ),
    ),
    county: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\d{2}$/, 'must be two digits, e.g. 46'),
        v.description('County number (fylkesnummer), two digits'),
      ),
    ),
    lat: v.optional(lat),
    lon: v.optional(lon),
    hazard: v.optional(
      v.pipe(
        v.picklist(['all', ...HAZARDS]),
        v.description('Which warnings: all (the default), flood, landslide or avalanche'),
      ),
      'all',
    ),
    date: v.optional(dateParameter),
    lang: v.optional(
      v.pipe(v.picklist(['en', 'no']), v.description('Language of the texts: en (the default) or no')),
      'en',
    ),
  },
  output: v.object({
    date: v.pipe(v.string(), v.description('The Norwegian calendar day the warnings are for')),
    location: v.object({
      county: v.pipe(v.nullable(v.string()), v.description('County number, given or found')),
      municipality: v.pipe(v.nullable(v.string()), v.description('Municipality number, given or found from the point')),
      municipality_name: v.nullable(v.string()),
      avalanche_region: v.pipe(
        v.nullable(v.object({ id: v.string(), name: v.nullable(v.string()) })),
        v.description(
          "The point's avalanche region, as Varsom places it; null when no avalanche warning was asked for or found",
        ),
      ),
      note: v.pipe(
        v.nullable(v.string()),
        v.description('Why a hazard could not be looked up for the place, when it could not'),
      ),
    }),
    highest_level: v.pipe(
      v.object({ flood: v.nullable(v.number()), landslide: v.nullable(v.number()), avalanche: v.nullable(v.number()) }),
      v.description(
        'The highest level among the warnings of each hazard; null when there is none or it was not asked for',
      ),
    ),
    warnings: v.array(warningOutput),
  }),
  list: 'warnings',
  // Varsom publishes flood and landslide warnings once a day and updates them when the danger
  // changes, avalanche warnings daily at about 16:00: a quarter of an hour is fresh enough.
  cacheTtlSeconds: 900,
  placeField: hazardWarningsPlaceField,
  canonicalFieldAliases: { timestamp: ['warnings[].valid_from'], name: ['warnings[].danger_type'] },
  shapeNote:
    'The public gateway’s clients are not known to call NVE’s warnings, so the shape is this gateway’s own: one list of every hazard, ' +
    'Varsom’s field names in snake case, times with their Norwegian offset.',

  async run(params, ctx) {
    const place = placeOf(params)
    const date = params.date ?? osloDate()
    const lang = LANGUAGE_KEYS[params.lang]
    const wanted = params.hazard === 'all' ? [...HAZARDS] : [params.hazard]
    const wantsHydro = wanted.some((h) => h !== 'avalanche')

    let found: PointMunicipality | null = null
    let note: string | null = null
    if (place.kind === 'point' && wantsHydro) {
      found = await municipalityOfPoint(ctx, place)
      if (!found)
        note =
          'No address within 5 km of the point, so its municipality, and its flood and landslide warnings, cannot be told (at sea, or outside Norway)'
    }
    const county = place.kind === 'point' ? (found?.number.slice(0, 2) ?? null) : place.county
    const municipality = place.kind === 'municipality' ? place.municipality : (found?.number ?? null)

    const lists = await Promise.all(
      wanted.map(async (hazard): Promise<Warning[]> => {
        if (hazard === 'avalanche') return avalancheWarningsFor(ctx, place, lang, date)
        return county ? hydroWarningsFor(ctx, hazard, county, municipality ?? undefined, lang, date) : []
      }),
    )
    const warnings = lists
      .flat()
      .sort((a, b) => hazardOrder(a.hazard) - hazardOrder(b.hazard) || (b.level ?? -1) - (a.level ?? -1))
    const highest = (hazard: Hazard) =>
      wanted.includes(hazard)
        ? warnings
            .filter((w) => w.hazard === hazard)
            .reduce<number | null>(
              (max, w) => (w.level !== null && (max === null || w.level > max) ? w.level : max),
              null,
            )
        : null
    const region =
      place.kind === 'point' ? (warnings.find((w) => w.hazard === 'avalanche' && w.region)?.region ?? null) : null
    return {
      data: {
        date,
        location: {
          county,
          municipality,
          municipality_name: found?.name ?? null,
          avalanche_region: region ? { id: region.id, name: region.name } : null,
          note,
        },
        highest_level: { flood: highest('flood'), landslide: highest('landslide'), avalanche: highest('avalanche') },
        warnings,
      },
    }
  },
})
