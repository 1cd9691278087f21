import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { kartverketAdresser } from '../geonorge/kartverket-upstreams.js'
import { MUNICIPALITY_SEARCH_RADIUS_M } from '../geonorge/municipality-of-point.js'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { distanceKm, pointParameters } from '../shared/wgs84-point.js'
import type { AddressGeocoder, GeocodeResult } from './address-geocoder.js'
import { brreg } from './brreg-upstream.js'
import { candidateShares } from './candidate-shares.js'
import type { CircleMunicipality, CircleMunicipalityLookup } from './circle-municipalities.js'
import { adresseSchema, enhetsdetaljerSchema, toEnhetsdetaljer, type Enhetsdetaljer } from './enhet-mapping.js'
import { fetchWindow } from './fetch-window.js'
import { geocodableAddress } from './geocodable-address.js'
import { organizationEntity } from './organization-entity.js'
import { companiesPlaceField } from './place-fields.js'

/** Most companies examined per request, over every municipality searched (the largest by headcount). */
export const MAX_CANDIDATES = 100
/** Fewest candidates asked for in a municipality the circle touches. */
const MIN_SHARE = 10
/** Most municipalities searched per request (one Brønnøysund call each). */
export const MAX_MUNICIPALITIES = 6
/** Most calls to Kartverket's address search per request; addresses already known cost none. */
export const MAX_GEOCODING_CALLS = 50
/** Most address lookups in flight at once. */
const GEOCODING_CONCURRENCY = 4

const count = (description: string) => v.pipe(v.number(), v.description(description))

const companySchema = v.object({
  organization_id: v.pipe(v.string(), v.description('Organisation number (organisasjonsnummer), 9 digits')),
  navn: v.string(),
  antallAnsatte: v.pipe(
    v.nullable(v.number()),
    v.description('Registered employees; null where Brønnøysund shows none (it hides counts below 5)'),
  ),
  naeringskode1: enhetsdetaljerSchema.entries.naeringskode1,
  organisasjonsform: enhetsdetaljerSchema.entries.organisasjonsform,
  forretningsadresse: v.pipe(v.nullable(adresseSchema), v.description('The business address, as Brønnøysund keeps it')),
  coordinates: v.pipe(
    v.object({ latitude: v.number(), longitude: v.number() }),
    v.description("WGS84 point of the business address, from Kartverket's address register"),
  ),
  distance_km: count('Distance from lat/lon in kilometres'),
  geocoded_address: v.pipe(
    v.string(),
    v.description('The address in Kartverket’s register the point is from: "Kongens gate 30, 0153 OSLO"'),
  ),
})

/** One company as `finn_selskaper_i_omrade` returns it. */
export type AreaCompany = v.InferOutput<typeof companySchema>

const unplacedReasons = v.object({
  no_address: count('Companies with no Norwegian street address in the register (none, a post-office box, abroad)'),
  address_not_found: count("Companies whose address Kartverket's register does not have"),
  not_looked_up: count(
    'Companies whose address was not looked up this time: the lookups per request (or the shared budget) were spent',
  ),
  lookup_failed: count("Companies whose address could not be looked up because Kartverket's address search failed"),
})

/** `data` of `finn_selskaper_i_omrade`. */
export const finnSelskaperIOmradeOutput = v.object({
  companies: v.array(companySchema),
  radius_km: count('The radius searched, in kilometres'),
  min_employees: count('The fewest registered employees a company has to have'),
  municipalities: v.pipe(
    v.array(
      v.object({
        kommunenummer: v.string(),
        kommunenavn: v.nullable(v.string()),
        matching: count('Companies Brønnøysund counts there with at least min_employees'),
        examined: count('Of them, the largest that were examined'),
      }),
    ),
    v.description('The municipalities the circle touches that were searched, the one of its centre first'),
  ),
  municipalities_not_searched: v.pipe(
    v.array(v.object({ kommunenummer: v.string(), kommunenavn: v.nullable(v.string()) })),
    v.description(`Municipalities the circle touches beyond the ${MAX_MUNICIPALITIES} searched per request`),
  ),
  matching: count('Companies with at least min_employees in the municipalities searched, inside the circle or not'),
  examined: count(`Of them, the largest examined (at most ${MAX_CANDIDATES})`),
  placed: count('Examined companies given a point, inside the circle or not'),
  outside_radius: count('Placed companies farther than radius_km, left out'),
  unplaced: count('Examined companies that could not be given a point; unplaced_reasons says why'),
  unplaced_reasons: unplacedReasons,
  geocoding_calls: count("Calls made to Kartverket's address search for this answer (remembered addresses cost none)"),
  limits: v.object({
    max_candidates: count('Most companies examined per request'),
    max_municipalities: count('Most municipalities searched per request'),
    max_geocoding_calls: count("Most address lookups in Kartverket's register per request"),
  }),
  truncated: v.pipe(
    v.boolean(),
    v.description(
      'True when companies that match may be missing: not every match was examined, or some addresses were not looked up; ' +
        'note says which',
    ),
  ),
  note: v.pipe(v.nullable(v.string()), v.description('What was left out and why, when anything was')),
})

type Output = v.InferOutput<typeof finnSelskaperIOmradeOutput>

/** What the operation needs that outlives a request: the municipality samples and the address memory of its source. */
export interface AreaSearchParts {
  municipalities: CircleMunicipalityLookup
  geocoder: AddressGeocoder
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`
const listed = (municipalities: readonly Pick<CircleMunicipality, 'number' | 'name'>[]) =>
  municipalities.map((m) => (m.name ? `${m.name} (${m.number})` : m.number)).join(', ')

function byHeadcount(a: Enhetsdetaljer, b: Enhetsdetaljer): number {
  return (b.antallAnsatte ?? -1) - (a.antallAnsatte ?? -1)
}

/**
 * Builds `finn_selskaper_i_omrade`: companies within `radius_km` of a point with at least
 * `min_employees`, nearest first. Enhetsregisteret has no coordinates, so each answer is made
 * in three bounded steps: the municipalities the circle touches (sampled through Kartverket's
 * address API, see `createCircleMunicipalities`); the largest companies there from
 * Enhetsregisteret (one call per municipality, at most {@link MAX_CANDIDATES} in all); their
 * business addresses placed through Kartverket's address search (at most
 * {@link MAX_GEOCODING_CALLS} calls, addresses remembered for a month). Companies beyond the
 * radius are dropped; everything a bound left out is counted and said in `note`.
 *
 * @example
 * const budget = createRequestBudget({ requests: 20, perMs: 1000, maxWaitMs: 1500 })
 * const finnSelskaperIOmrade = createFinnSelskaperIOmrade({
 *   municipalities: createCircleMunicipalities(budget),
 *   geocoder: createAddressGeocoder({ budget }),
 * })
 * // GET /api/v1/kilder/firmafakta/finn_selskaper_i_omrade?lat=59.913&lon=10.739&radius_km=1&min_employees=50
 */
export function createFinnSelskaperIOmrade(parts: AreaSearchParts) {
  return defineOperation({
    description:
      'Companies (main entities in Enhetsregisteret) with at least min_employees whose business address lies within ' +
      "radius_km of a point, nearest first, each with the WGS84 point of its address from Kartverket's address register. " +
      `The largest ${MAX_CANDIDATES} companies of the municipalities the circle touches are examined; truncated and note say ` +
      'when companies that match may be missing, and unplaced counts those whose address could not be placed.',
    parameters: {
      ...pointParameters(3),
      radius_km: radiusKmParameter({ fallback: 1, max: 20 }),
      min_employees: v.optional(
        v.pipe(
          v.number(),
          v.integer('must be a whole number'),
          v.minValue(0),
          v.maxValue(1_000_000),
          v.description(
            `At least this many registered employees; 10 when left out. Only the ${MAX_CANDIDATES} largest matches are ` +
              'examined, so a higher value leaves fewer of them out',
          ),
        ),
        10,
      ),
    },
    output: finnSelskaperIOmradeOutput,
    list: 'companies',
    placeField: companiesPlaceField,
    canonicalFieldAliases: {
      name: ['companies[].navn'],
      latitude: ['companies[].coordinates.latitude'],
      longitude: ['companies[].coordinates.longitude'],
    },
    shapeNote:
      'data is {companies, ..., has_more_results} with the row fields the public gateway’s clients read (organization_id, navn, ' +
      'antallAnsatte, naeringskode1 as Brønnøysund gives it, coordinates {latitude, longitude}); distance_km, forretningsadresse, ' +
      'organisasjonsform and geocoded_address stand beside them, and the counts beside the list say what was examined and placed.',
    // Headcounts change monthly; a quarter of an hour lets an answer cut short by the lookup cap fill in soon.
    cacheTtlSeconds: 900,
    datasets: [],

    async run(params, ctx) {
      const center = { lat: params.lat, lon: params.lon }
      const radiusKm = params.radius_km
      const circle = await parts.municipalities.of(ctx, center, radiusKm)
      const searched = circle.municipalities.slice(0, MAX_MUNICIPALITIES)
      const notSearched = circle.municipalities.slice(MAX_MUNICIPALITIES)
      const shares = candidateShares(
        searched.map((m) => m.samples),
        MAX_CANDIDATES,
        MIN_SHARE,
      )
      const client = ctx.upstream(brreg)
      const windows = await Promise.all(
        searched.map((municipality, i) =>
          fetchWindow(
            client,
            {
              path: '/enheter',
              resource: 'enhet',
              query: {
                kommunenummer: municipality.number,
                fraAntallAnsatte: params.min_employees > 0 ? params.min_employees : undefined,
                konkurs: false,
                sort: 'antallAnsatte,DESC',
              },
            },
            0,
            shares[i] ?? MIN_SHARE,
          ),
        ),
      )

      const seen = new Set<string>()
      const candidates = windows
        .flatMap((window) => window.rows.map((unit) => toEnhetsdetaljer(unit, 'hovedenhet')))
        .filter((unit) => (seen.has(unit.organisasjonsnummer) ? false : (seen.add(unit.organisasjonsnummer), true)))
        .sort(byHeadcount)
      const withAddress = candidates.map((unit) => ({ unit, address: geocodableAddress(unit.forretningsadresse) }))
      const addresses = withAddress.flatMap(({ address }) => (address ? [address] : []))
      const run = await parts.geocoder.placeAll(ctx.upstream(kartverketAdresser), addresses, {
        maxCalls: MAX_GEOCODING_CALLS,
        concurrency: GEOCODING_CONCURRENCY,
      })

      const reasons = { no_address: 0, address_not_found: 0, not_looked_up: 0, lookup_failed: 0 }
      let placed = 0
      let outside = 0
      let budgetSpent = false
      const companies: AreaCompany[] = []
      for (const { unit, address } of withAddress) {
        const result: GeocodeResult | undefined = address ? run.results.get(address.key) : undefined
        if (!address || !result) {
          reasons.no_address++
          continue
        }
        if (result.status === 'not_found') reasons.address_not_found++
        else if (result.status === 'failed') reasons.lookup_failed++
        else if (result.status === 'not_looked_up') {
          reasons.not_looked_up++
          budgetSpent ||= result.because === 'budget'
        } else {
          placed++
          const distance = distanceKm(center, result.place)
          if (distance > radiusKm) {
            outside++
            continue
          }
          companies.push({
            organization_id: unit.organisasjonsnummer,
            navn: unit.navn,
            antallAnsatte: unit.antallAnsatte,
            naeringskode1: unit.naeringskode1,
            organisasjonsform: unit.organisasjonsform,
            forretningsadresse: unit.forretningsadresse,
            coordinates: { latitude: result.place.lat, longitude: result.place.lon },
            distance_km: Math.round(distance * 1000) / 1000,
            geocoded_address: result.place.address,
          })
        }
      }
      // Kartverket failed and nothing could be placed: an empty 200 would say "no companies here".
      if (placed === 0 && reasons.lookup_failed > 0) throw run.firstError
      // sort() is stable: at one address, the larger company first.
      companies.sort((a, b) => a.distance_km - b.distance_km)

      const municipalities = searched.map((m, i) => ({
        kommunenummer: m.number,
        kommunenavn: m.name,
        matching: windows[i]?.total ?? 0,
        examined: windows[i]?.rows.length ?? 0,
      }))
      const matching = municipalities.reduce((sum, m) => sum + m.matching, 0)
      const examined = candidates.length
      const unplaced = Object.values(reasons).reduce((sum, n) => sum + n, 0)
      const notes: string[] = []
      if (circle.municipalities.length === 0) {
        notes.push(
          `No address lies within ${MUNICIPALITY_SEARCH_RADIUS_M / 1000} km of any of the ${circle.samples} points sampled in the circle ` +
            '(at sea, or outside Norway), so no municipality, and no company, could be searched.',
        )
      }
      if (matching > examined) {
        notes.push(
          `Brønnøysund counts ${matching} companies with at least ${params.min_employees} employees in ${listed(searched)}; ` +
            `the ${examined} largest were examined (at most ${MAX_CANDIDATES} a request), so smaller companies inside the circle may be missing: ` +
            'a higher min_employees leaves fewer of them out.',
        )
      }
      if (notSearched.length > 0) {
        notes.push(
          `The circle touches more than ${MAX_MUNICIPALITIES} municipalities; ${listed(notSearched)} were not searched.`,
        )
      }
      if (reasons.not_looked_up > 0) {
        notes.push(
          `${plural(reasons.not_looked_up, 'company was', 'companies were')} not placed because ` +
            (budgetSpent
              ? "the gateway's request budget for Kartverket was spent"
              : `at most ${MAX_GEOCODING_CALLS} addresses are looked up in Kartverket's register a request`) +
            '; they are looked up on a later request (an address found is remembered for 30 days).',
        )
      }
      if (reasons.lookup_failed > 0) {
        const why = run.firstError instanceof Error ? ` (${run.firstError.message})` : ''
        notes.push(
          `Kartverket's address search failed${why}; ${plural(reasons.lookup_failed, 'company', 'companies')} could not be placed.`,
        )
      }
      const permanent = reasons.no_address + reasons.address_not_found
      if (permanent > 0) {
        notes.push(
          `${plural(permanent, 'company has', 'companies have')} no business address Kartverket's register could place ` +
            `(${reasons.no_address} without a Norwegian street address, ${reasons.address_not_found} not found): ` +
            'counted in unplaced, not placed by guess.',
        )
      }
      const data: Output = {
        companies,
        radius_km: radiusKm,
        min_employees: params.min_employees,
        municipalities,
        municipalities_not_searched: notSearched.map((m) => ({ kommunenummer: m.number, kommunenavn: m.name })),
        matching,
        examined,
        placed,
        outside_radius: outside,
        unplaced,
        unplaced_reasons: reasons,
        geocoding_calls: run.calls,
        limits: {
          max_candidates: MAX_CANDIDATES,
          max_municipalities: MAX_MUNICIPALITIES,
          max_geocoding_calls: MAX_GEOCODING_CALLS,
        },
        truncated:
          matching > examined || notSearched.length > 0 || reasons.not_looked_up > 0 || reasons.lookup_failed > 0,
        note: notes.length > 0 ? notes.join(' ') : null,
      }
      return { data, ...(windows[0] ? { sourceApi: windows[0].url } : {}) }
    },
    entities: (data) => data.companies.map((company) => organizationEntity(company.organization_id, company.navn)),
  })
}
