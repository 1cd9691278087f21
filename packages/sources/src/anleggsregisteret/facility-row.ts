import * as v from 'valibot'
import type { Facility } from './facility-register.js'

/** The statuses the register gives a facility. */
export const FACILITY_STATUSES = ['EXISTING', 'PLANNED', 'CLOSED_DOWN', 'UNREALIZED'] as const

/** The `status` filter every operation of the source takes. */
export const statusParameter = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.toUpperCase(),
    v.picklist(FACILITY_STATUSES),
    v.description('Only facilities with this status: EXISTING, PLANNED, CLOSED_DOWN or UNREALIZED'),
  ),
)

/** One facility as every operation of the source answers it. */
export const facilitySchema = v.object({
  id: v.pipe(v.number(), v.description("The register's facility number (anleggsnummer)")),
  name: v.pipe(v.nullable(v.string()), v.description('Name of the facility')),
  facility_type: v.pipe(
    v.nullable(v.string()),
    v.description('Kind of facility (anleggstype), e.g. "Fleridrettshall", "Ballbinge"'),
  ),
  category: v.pipe(
    v.nullable(v.string()),
    v.description('Category (anleggskategori), e.g. "Idrettshaller og aktivitetssaler"'),
  ),
  status: v.pipe(v.nullable(v.string()), v.description('EXISTING, PLANNED, CLOSED_DOWN or UNREALIZED')),
  lat: v.pipe(
    v.nullable(v.number()),
    v.description('WGS84 latitude; null when the register has no believable position (see position_quality)'),
  ),
  lon: v.pipe(
    v.nullable(v.number()),
    v.description('WGS84 longitude; null when the register has no believable position (see position_quality)'),
  ),
  municipality: v.pipe(v.nullable(v.string()), v.description('Municipality, as the register writes it')),
  county: v.pipe(v.nullable(v.string()), v.description('County, as the register writes it')),
  owner: v.pipe(v.nullable(v.string()), v.description('Owner (eier)')),
  operator: v.pipe(v.nullable(v.string()), v.description('Operator (driver)')),
  position_quality: v.pipe(
    v.picklist(['register', 'corrected_utm_zone', 'placeholder', 'implausible', 'missing']),
    v.description(
      "register: as the register gives it; corrected_utm_zone: the longitude moved by whole UTM zones (6°) to where the municipality's " +
        'other facilities are; placeholder, implausible, missing: no believable position, lat and lon are null',
    ),
  ),
  position_note: v.pipe(
    v.nullable(v.string()),
    v.description('What was done with the position, and why, when anything was'),
  ),
})

/**
 * A facility of the register as a row of an answer.
 *
 * @example
 * const answered = rows.map(toRow)
 */
export function toRow(f: Facility): v.InferOutput<typeof facilitySchema> {
  return {
    id: f.id,
    name: f.name,
    facility_type: f.type,
    category: f.category,
    status: f.status,
    lat: f.lat,
    lon: f.lon,
    municipality: f.municipality,
    county: f.county,
    owner: f.owner,
    operator: f.operator,
    position_quality: f.positionQuality,
    position_note: f.positionNote,
  }
}
