import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { defineOperation, rankByName } from '@allmenning/core/source'
import {
  kartverketKommuneinfo,
  municipalityKey,
  municipalityNumberOf,
  municipalityParameter,
  type MunicipalityLookup,
} from '../shared/kommuneinfo.js'
import { anleggsregisteretApi } from './anleggsregisteret-upstream.js'
import {
  FACILITIES_PATH,
  PAGE_SIZE,
  type Facility,
  type FacilityRegister,
  type FacilityRegisterCache,
} from './facility-register.js'
import { facilitySchema, statusParameter, toRow } from './facility-row.js'

/** The register's facilities under any of the names, each once. */
function facilitiesNamed(register: FacilityRegister, names: string[]): Facility[] {
  const keys = new Set(names.map(municipalityKey))
  let found = [...keys].flatMap((key) => register.byMunicipality.get(key) ?? [])
  if (found.length === 0) {
    // A Sami and Norwegian name written together ("Deatnu-Tana") answers to either.
    found = [...register.byMunicipality.entries()]
      .filter(([, facilities]) => {
        const written = facilities[0]?.municipality ?? ''
        return (
          written.split(/\s*[-–/]\s*/).length > 1 &&
          written.split(/\s*[-–/]\s*/).some((part) => keys.has(municipalityKey(part)))
        )
      })
      .flatMap(([, facilities]) => facilities)
  }
  return [...new Map(found.map((f) => [f.id, f])).values()]
}

/** What {@link createFindFacilities} is built over. */
export interface FindFacilitiesDeps {
  register: FacilityRegisterCache
  municipalities: MunicipalityLookup
}

/**
 * Builds `find_facilities` over one source instance's copy of the register.
 *
 * @example
 * const findFacilities = createFindFacilities(deps)
 */
export function createFindFacilities(deps: FindFacilitiesDeps) {
  return defineOperation({
    description:
      'Sports and cultural facilities in a municipality from Anleggsregisteret (the register of facilities built with ' +
      'gaming funds): halls, pitches, pools, trails, with type, status, owner and operator and a WGS84 position. The register ' +
      'cannot be asked for one municipality, so the gateway reads the whole register once every 12 hours and filters it; until ' +
      'the first read is complete, calls answer 502 upstream_busy with how far it has come. Positions the register gives in the ' +
      'wrong UTM zone are moved back and marked; positions that cannot be believed are given as null, with the reason.',
    parameters: {
      municipality: municipalityParameter(
        'The municipality: its name as the public gateway’s clients send it (Oslo), or its number (0301)',
      ),
      status: statusParameter,
    },
    limit: { default: 100, max: 500 },
    output: v.object({
      facilities: v.array(facilitySchema),
      count: v.pipe(v.number(), v.description('Facilities found: the whole list before limit and offset')),
      municipalities: v.pipe(
        v.array(v.object({ municipality: v.string(), county: v.nullable(v.string()), facilities: v.number() })),
        v.description(
          'The municipalities matched, as the register writes them (a name two municipalities share matches both)',
        ),
      ),
      register_read_at: v.pipe(v.string(), v.description('When the gateway last read the whole register (ISO 8601)')),
    }),
    list: 'facilities',
    canonicalFieldAliases: {
      name: ['facilities[].name'],
      latitude: ['facilities[].lat'],
      longitude: ['facilities[].lon'],
    },
    shapeNote:
      'data is {facilities, count, …} with the row fields the public gateway’s clients read (id as a number, name, facility_type, ' +
      'status, lat, lon) and its parameters municipality (a name), limit (at most 500) and offset.',
    // The register changes a few times a week; it is itself read twice a day.
    cacheTtlSeconds: 3 * 3600,

    async run(params, ctx) {
      const client = ctx.upstream(anleggsregisteretApi)
      const number = municipalityNumberOf(params.municipality)
      // Kartverket tells a number's names first, so an unknown number is refused without reading the register.
      const known =
        number === undefined
          ? undefined
          : await deps.municipalities.byNumber(ctx.upstream(kartverketKommuneinfo), number)
      if (known === null)
        throw new GatewayError(404, 'entity_not_found', `No municipality numbered ${number} in Kartverket's register`)
      const register = await deps.register.get(client)
      let found = facilitiesNamed(register, known ? known.names : [params.municipality])
      if (found.length === 0 && !known) {
        const written = [...register.byMunicipality.values()]
          .map((facilities) => facilities[0]?.municipality ?? '')
          .filter(Boolean)
        const close = rankByName(params.municipality, written, (name) => ({ codes: [], names: [name] }))
          .slice(0, 3)
          .map(({ item }) => item)
        throw new GatewayError(
          404,
          'entity_not_found',
          `Anleggsregisteret has no municipality called "${params.municipality}"${close.length ? `; did you mean ${close.join(', ')}?` : ''}`,
        )
      }
      // A number names one municipality: where the name is shared, the county tells them apart.
      if (known?.county && new Set(found.map((f) => municipalityKey(f.county ?? ''))).size > 1) {
        const inCounty = found.filter((f) => municipalityKey(f.county ?? '') === municipalityKey(known.county!))
        if (inCounty.length > 0) found = inCounty
      }
      const groups = new Map<string, { municipality: string; county: string | null; facilities: number }>()
      for (const f of found) {
        const key = `${f.municipality}|${f.county}`
        const group = groups.get(key) ?? {
          municipality: f.municipality ?? params.municipality,
          county: f.county,
          facilities: 0,
        }
        group.facilities++
        groups.set(key, group)
      }
      const matching = (params.status ? found.filter((f) => f.status === params.status) : found).sort(
        (a, b) => a.id - b.id,
      )
      return {
        data: {
          facilities: matching.map(toRow),
          count: matching.length,
          municipalities: [...groups.values()],
          register_read_at: new Date(register.loadedAt).toISOString(),
        },
        sourceApi: client.url(FACILITIES_PATH, { page: 0, size: PAGE_SIZE }),
        rawValues: {
          register_facilities: register.facilities.length,
          register_rows_without_id: register.withoutId,
          positions_corrected: found.filter((f) => f.positionQuality === 'corrected_utm_zone').length,
          positions_withheld: found.filter((f) => f.lat === null).length,
        },
      }
    },
  })
}
