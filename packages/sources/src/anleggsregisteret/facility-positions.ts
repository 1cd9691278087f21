import { distanceKm, type Wgs84Point } from '../shared/wgs84-point.js'

/** How a facility's position was judged. */
export type PositionQuality = 'register' | 'corrected_utm_zone' | 'placeholder' | 'implausible' | 'missing'

/** A facility's position after judging, and what was done. */
export interface JudgedPosition {
  lat: number | null
  lon: number | null
  quality: PositionQuality
  note: string | null
}

/** The register's position of one facility, as read, and the group it is judged in. */
export interface RawPosition {
  lat: number | null
  lon: number | null
  /** Municipality and county, as one key: facilities are judged against the others of their municipality. */
  group: string
}

/**
 * Positions the register gives Oslo facilities that have none of their own: OpenStreetMap
 * Norway's import tool flags exactly these two as "Not exact coordinates (Oslo)".
 */
const PLACEHOLDERS: Wgs84Point[] = [
  { lat: 59.917201, lon: 10.727413 },
  { lat: 59.917112, lon: 10.727424 },
]

/** Mainland Norway, Svalbard and Jan Mayen, generously: anything outside is not a Norwegian facility's position. */
const NORWAY = { south: 57.5, north: 81.5, west: -10, east: 35 }

/** A position this far from the middle of its municipality's facilities is not believed as it stands. */
export const FAR_KM = 120

/** A longitude moved by whole UTM zones must land this close to the middle of its municipality to be taken. */
export const NEAR_KM = 60

/** Fewest believable positions in a municipality before its middle is used to judge the rest. */
const MIN_GROUP = 3

const inNorway = (p: Wgs84Point) =>
  p.lat >= NORWAY.south && p.lat <= NORWAY.north && p.lon >= NORWAY.west && p.lon <= NORWAY.east

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

const rounded = (n: number) => Math.round(n * 1_000_000) / 1_000_000

/**
 * Judges every facility's position against the others of its municipality, once per load of
 * the register. Some facilities are registered in the wrong UTM zone, which leaves their
 * longitude a multiple of 6° off: when moving it by ±6°, ±12° or ±18° brings it within
 * {@link NEAR_KM} of the middle (median) of its municipality's facilities, it is moved and the
 * row says so. A position more than {@link FAR_KM} from that middle that no such move explains,
 * one outside Norway, (0, 0), a missing one and the known Oslo placeholders are given as null,
 * with a note that says why, rather than as a point on the map that is not the facility's.
 *
 * @example
 * judgePositions([{ lat: 59.92, lon: 4.75, group: 'oslo|oslo' }, ...rows])[0]
 * // { lat: 59.92, lon: 10.75, quality: 'corrected_utm_zone', note: 'longitude moved by +6° …' }
 */
export function judgePositions(facilities: RawPosition[]): JudgedPosition[] {
  const given = facilities.map((f) => {
    const unusable =
      f.lat === null ||
      f.lon === null ||
      !Number.isFinite(f.lat) ||
      !Number.isFinite(f.lon) ||
      (f.lat === 0 && f.lon === 0)
    return unusable ? null : { lat: f.lat!, lon: f.lon! }
  })
  const placeholder = given.map((p) => p !== null && PLACEHOLDERS.some((q) => q.lat === p.lat && q.lon === p.lon))
  const middles = new Map<string, Wgs84Point>()
  const groups = new Map<string, Wgs84Point[]>()
  facilities.forEach((f, i) => {
    const p = given[i]
    if (!p || placeholder[i] || !inNorway(p)) return
    const list = groups.get(f.group) ?? []
    list.push(p)
    groups.set(f.group, list)
  })
  for (const [group, points] of groups) {
    if (points.length >= MIN_GROUP)
      middles.set(group, { lat: median(points.map((p) => p.lat)), lon: median(points.map((p) => p.lon)) })
  }

  return facilities.map((f, i) => {
    const p = given[i]
    if (!p) return { lat: null, lon: null, quality: 'missing', note: 'The register has no position for this facility' }
    if (placeholder[i]) {
      const note = `The register gives (${p.lat}, ${p.lon}), a stand-in it uses for Oslo facilities without a position of their own`
      return { lat: null, lon: null, quality: 'placeholder', note }
    }
    const middle = middles.get(f.group)
    const away = middle ? distanceKm(middle, p) : undefined
    if (inNorway(p) && (away === undefined || away <= FAR_KM))
      return { lat: p.lat, lon: p.lon, quality: 'register', note: null }
    if (middle) {
      const moves = [-3, -2, -1, 1, 2, 3]
        .map((zones) => ({ zones, at: { lat: p.lat, lon: rounded(p.lon + 6 * zones) } }))
        .map((move) => ({ ...move, km: distanceKm(middle, move.at) }))
        .filter((move) => move.km <= NEAR_KM)
        .sort((a, b) => a.km - b.km)
      const best = moves[0]
      if (best) {
        const degrees = `${best.zones > 0 ? '+' : '−'}${Math.abs(6 * best.zones)}°`
        return {
          lat: best.at.lat,
          lon: best.at.lon,
          quality: 'corrected_utm_zone',
          note:
            `Longitude moved by ${degrees}: the register gives (${p.lat}, ${p.lon}), ${Math.round(away!)} km from the ` +
            "municipality's other facilities, as if in another UTM zone",
        }
      }
    }
    const where =
      away === undefined ? 'outside Norway' : `${Math.round(away)} km from the municipality's other facilities`
    const note = `The register gives (${p.lat}, ${p.lon}), ${where}; left out rather than shown in the wrong place`
    return { lat: null, lon: null, quality: 'implausible', note }
  })
}
