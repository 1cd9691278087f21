import { createTimedMemo, foldNorwegian, type UpstreamClient } from '@allmenning/core/source'
import { fetchPlacePage } from '../geonorge/place-name-api.js'
import type { LatLonBox, MunicipalityInfo, MunicipalityLookup } from '../shared/kommuneinfo.js'
import { distanceKm, type Wgs84Point } from '../shared/wgs84-point.js'

/** Most geocoding lookups (a municipality or an area not yet known) one request makes. */
export const LOOKUPS_PER_REQUEST = 30

/** Where a message was put, and how. */
export interface Placement {
  lat: number
  lon: number
  placedBy: 'area' | 'municipality'
  /** How far the message may lie from the point, in km: 1 for a named place, half the municipality's box diagonal otherwise. */
  precisionKm: number | null
  municipality: MunicipalityInfo
}

/** Why a message has no place. */
export type Unplaced = 'no_municipality' | 'unknown_municipality' | 'lookup_cap'

/** A count of geocoding lookups left for one request, shared by every message it places. */
export interface LookupBudget {
  left: number
  used: number
}

/**
 * A fresh per-request budget of {@link LOOKUPS_PER_REQUEST} lookups.
 *
 * @example
 * const budget = lookupBudget()
 */
export const lookupBudget = (lookups = LOOKUPS_PER_REQUEST): LookupBudget => ({ left: lookups, used: 0 })

const DAY_MS = 86_400_000
const fold = (s: string) => foldNorwegian(s.toLowerCase()).replace(/[\s\-–.,'’]/g, '')

/** Half the diagonal of a box, in km: how far a point of the municipality may lie from any other. */
function halfDiagonalKm(box: LatLonBox | null): number | null {
  if (!box) return null
  return Math.round(distanceKm({ lat: box.south, lon: box.west }, { lat: box.north, lon: box.east }) * 5) / 10
}

/**
 * True when the point lies in the box (with a margin in degrees).
 *
 * @example
 * inBox({ south: 59.8, west: 10.4, north: 60.1, east: 10.9 }, { lat: 59.91, lon: 10.75 }) // true
 */
export function inBox(box: LatLonBox, point: Wgs84Point, margin = 0): boolean {
  return (
    point.lat >= box.south - margin &&
    point.lat <= box.north + margin &&
    point.lon >= box.west - margin &&
    point.lon <= box.east + margin
  )
}

/** The clients the placer calls. */
export interface PlacerClients {
  kommuneinfo: UpstreamClient
  stedsnavn: UpstreamClient
}

/**
 * Places police log messages, which name a municipality and often an area (a street, a
 * district, a village) but carry no coordinates. Placements are kept long (a municipality a
 * week, an area a month, "not found" as long), so that a request pays only for names not seen
 * before, and at most its {@link LookupBudget}: the rest stay unplaced in that answer.
 *
 * @example
 * const placer = createPlacer(deps.municipalities)
 * const clients = { kommuneinfo: ctx.upstream(kartverketKommuneinfo), stedsnavn: ctx.upstream(kartverketStedsnavn) }
 * const baerum = await placer.municipality(clients, 'Bærum', lookupBudget())
 */
export function createPlacer(lookup: MunicipalityLookup) {
  const municipalities = createTimedMemo<{ info: MunicipalityInfo | null }>({
    ttlMs: 7 * DAY_MS,
    staleOnErrorMs: 30 * DAY_MS,
    errorTtlMs: 60_000,
    maxEntries: 2000,
  })
  const areas = createTimedMemo<{ point: Wgs84Point | null }>({
    ttlMs: 30 * DAY_MS,
    errorTtlMs: 60_000,
    maxEntries: 20_000,
  })

  /** A municipality by the name Politiloggen writes: known, null (not one municipality), or undefined (out of lookups). */
  async function municipality(
    clients: PlacerClients,
    name: string,
    budget: LookupBudget,
  ): Promise<MunicipalityInfo | null | undefined> {
    const key = fold(name)
    const known = municipalities.peek(key)
    if (known) return known.info
    if (budget.left <= 0) return undefined
    budget.left--
    budget.used++
    const found = await municipalities.get(key, async () => {
      const named = (await lookup.byName(clients.kommuneinfo, name)).filter((m) => m.point)
      // A name two municipalities share (Herøy, Våler) cannot be told apart here: better no place than a wrong one.
      return { info: named.length === 1 ? named[0]! : null }
    })
    return found.info
  }

  /** An area's point inside a municipality from Kartverket's place names: known, null (none), or undefined (out of lookups). */
  async function area(
    clients: PlacerClients,
    name: string,
    within: MunicipalityInfo,
    budget: LookupBudget,
  ): Promise<Wgs84Point | null | undefined> {
    const key = `${within.number}|${fold(name)}`
    const known = areas.peek(key)
    if (known) return known.point
    if (budget.left <= 0) return undefined
    budget.left--
    budget.used++
    const found = await areas.get(key, async () => {
      const { items } = await fetchPlacePage(clients.stedsnavn, { sok: name, knr: within.number }, 1, 5)
      // Only a place of exactly that name, inside the municipality's box: a near miss is worse than the municipality.
      const hit = items.find(
        (p) => p.names.some((n) => fold(n.name) === fold(name)) && (!within.box || inBox(within.box, p, 0.02)),
      )
      return { point: hit ? { lat: hit.lat, lon: hit.lon } : null }
    })
    return found.point
  }

  return {
    municipality,
    area,
    /**
     * Places one message: by its area when the area is a known place name of its municipality
     * and `wantArea` says it is worth a lookup, else by the municipality's representative point.
     */
    async place(
      clients: PlacerClients,
      message: { municipality: string | null; area: string | null },
      budget: LookupBudget,
      wantArea: (m: MunicipalityInfo) => boolean,
    ): Promise<Placement | Unplaced> {
      if (!message.municipality) return 'no_municipality'
      const m = await municipality(clients, message.municipality, budget)
      if (m === undefined) return 'lookup_cap'
      if (m === null || !m.point) return 'unknown_municipality'
      if (message.area && wantArea(m)) {
        const point = await area(clients, message.area, m, budget)
        if (point) return { ...point, placedBy: 'area', precisionKm: 1, municipality: m }
      }
      return { ...m.point, placedBy: 'municipality', precisionKm: halfDiagonalKm(m.box), municipality: m }
    },
  }
}

/** What {@link createPlacer} gives. */
export type Placer = ReturnType<typeof createPlacer>
