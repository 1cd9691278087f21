import * as v from 'valibot'
import { checkUpstreamShape, UpstreamError } from '@allmenning/core/source'
import type { Wgs84Point } from '../shared/wgs84-point.js'

// NOBIL's numbers come as numbers or as text ("Number_charging_points":"2"), so both are read.
const looseNumber = v.optional(v.nullable(v.union([v.number(), v.string()])))
const looseText = v.optional(v.nullable(v.union([v.string(), v.number()])))
const attribute = v.looseObject({
  attrtypeid: looseText,
  attrname: looseText,
  attrvalid: looseText,
  trans: looseText,
  attrval: looseText,
})
const attributes = v.optional(v.nullable(v.union([v.record(v.string(), attribute), v.array(attribute)])))

const station = v.looseObject({
  csmd: v.looseObject({
    id: looseNumber,
    name: looseText,
    Street: looseText,
    House_number: looseText,
    Zipcode: looseText,
    City: looseText,
    Municipality: looseText,
    County: looseText,
    Owned_by: looseText,
    Number_charging_points: looseNumber,
    Available_charging_points: looseNumber,
    Position: looseText,
    Land_code: looseText,
    International_id: looseText,
    Updated: looseText,
  }),
  attr: v.optional(
    v.nullable(
      v.looseObject({
        st: attributes,
        // Keyed by connector number, then by attribute type id; PHP sends an empty list for none.
        conn: v.optional(v.nullable(v.union([v.record(v.string(), attributes), v.array(attributes)]))),
      }),
    ),
  ),
})

/** NOBIL's search answer. */
export const searchAnswer = v.looseObject({
  Provider: v.optional(v.string()),
  Rights: v.optional(v.string()),
  chargerstations: v.optional(v.nullable(v.array(station)), []),
})

type Station = v.InferOutput<typeof station>
type Attributes = v.InferOutput<typeof attributes>

/** One connector of a station. */
export interface Connector {
  number: string
  type: string | null
  capacity: string | null
  status: string | null
}

/** One station as this source keeps it. */
export interface ChargingStation {
  id: string
  name: string | null
  address: string | null
  postalCode: string | null
  city: string | null
  municipality: string | null
  county: string | null
  owner: string | null
  position: Wgs84Point | null
  chargingPoints: number | null
  availableChargingPoints: number | null
  availability: string | null
  connectors: Connector[]
  updated: string | null
}

const text = (value: unknown): string | null => {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value !== 'string') return null
  const trimmed = value.trim()
  return trimmed === '' ? null : trimmed
}

const integer = (value: unknown): number | null => {
  const parsed =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\s*\d+\s*$/.test(value)
        ? Number(value)
        : Number.NaN
  return Number.isInteger(parsed) ? parsed : null
}

/**
 * NOBIL's times (`Updated`, `Created`) are local times written `YYYY-MM-DD HH:MM:SS`, with a
 * space; answered as ISO 8601 (`T`), still without a zone, as NOBIL gives none.
 *
 * @example
 * localTime('2026-09-20 08:12:00') // '2026-09-20T08:12:00'
 */
export function localTime(value: unknown): string | null {
  const written = text(value)
  return written === null ? null : written.replace(/^(\d{4}-\d\d-\d\d) (\d\d:\d\d(?::\d\d)?)$/, '$1T$2')
}

/**
 * Reads NOBIL's `Position`, a string `"(lat,lon)"`, as a position.
 *
 * @example
 * parsePosition('(59.87447,10.49982)') // { lat: 59.87447, lon: 10.49982 }
 */
export function parsePosition(value: unknown): Wgs84Point | null {
  if (typeof value !== 'string') return null
  const match = /^\s*\(\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\)\s*$/.exec(value)
  if (!match) return null
  const lat = Number(match[1])
  const lon = Number(match[2])
  if (lat < -90 || lat > 90 || lon < -180 || lon > 180 || (lat === 0 && lon === 0)) return null
  return { lat, lon }
}

function entries(list: Attributes): v.InferOutput<typeof attribute>[] {
  if (!list) return []
  return Array.isArray(list) ? list : Object.entries(list).map(([id, a]) => ({ attrtypeid: a.attrtypeid ?? id, ...a }))
}

/** An attribute by its type id (4 Connector, 5 Charging capacity, 8 Connector status, 2 Availability) or name. */
function find(list: Attributes, typeId: string, name: string) {
  return entries(list).find(
    (a) => String(a.attrtypeid ?? '') === typeId || String(a.attrname ?? '').toLowerCase() === name,
  )
}

function connectorsOf(conn: unknown): Connector[] {
  if (!conn || typeof conn !== 'object') return []
  const list = Array.isArray(conn)
    ? conn.map((c, i) => [String(i + 1), c] as const)
    : Object.entries(conn as Record<string, Attributes>)
  return list.map(([number, attrs]) => {
    const status = find(attrs as Attributes, '8', 'connector status')
    return {
      number,
      type: text(find(attrs as Attributes, '4', 'connector')?.trans),
      capacity: text(find(attrs as Attributes, '5', 'charging capacity')?.trans),
      // attrval carries the live code (AVAILABLE, OCCUPIED, ...); trans is only its wording.
      status: text(status?.attrval) ?? text(status?.trans),
    }
  })
}

function toStation(s: Station): ChargingStation | null {
  const c = s.csmd
  const id =
    text(c.International_id) ?? (text(c.id) && text(c.Land_code) ? `${text(c.Land_code)}_${text(c.id)}` : text(c.id))
  if (id === null) return null
  const street = [text(c.Street), text(c.House_number)].filter((part) => part !== null).join(' ')
  return {
    id,
    name: text(c.name),
    address: street === '' ? null : street,
    postalCode: text(c.Zipcode),
    city: text(c.City),
    municipality: text(c.Municipality),
    county: text(c.County),
    owner: text(c.Owned_by),
    position: parsePosition(c.Position),
    chargingPoints: integer(c.Number_charging_points),
    availableChargingPoints: integer(c.Available_charging_points),
    availability: text(find(s.attr?.st, '2', 'availability')?.trans),
    connectors: connectorsOf(s.attr?.conn),
    updated: localTime(c.Updated),
  }
}

/**
 * Reads a NOBIL search answer. An `error` in the body (as NOBIL reports a refused key) is a
 * 502 naming NOBIL; a station without any id is left out.
 *
 * @example
 * const stations = parseChargerStations(res.body, client)
 */
export function parseChargerStations(body: unknown, upstream: { id: string; name: string }): ChargingStation[] {
  if (body && typeof body === 'object' && !Array.isArray(body) && 'error' in body) {
    const message = text((body as { error: unknown }).error)
    throw new UpstreamError(upstream, 'status', `refused the search${message ? `: ${message.slice(0, 200)}` : ''}`)
  }
  const answer = checkUpstreamShape(upstream, searchAnswer, body, 'the station search')
  return (answer.chargerstations ?? []).map(toStation).filter((s): s is ChargingStation => s !== null)
}
