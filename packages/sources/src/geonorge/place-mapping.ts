import * as v from 'valibot'
import type { EntityInput, UpstreamClient } from '@allmenning/core/source'
import type { UpstreamPlace } from './upstream-shapes.js'
import { assertGeographic } from './wgs84-check.js'

const text = (description: string) => v.pipe(v.nullable(v.string()), v.description(description))

/** The fields of one place, in `search_place_name` and `find_place_names_nearby`. */
export const placeFields = {
  place_id: v.pipe(
    v.number(),
    v.description('Kartverket’s id of the place (stedsnummer); search_place_name takes it as place_id'),
  ),
  name: v.pipe(v.string(), v.description('The main name of the place (its hovednavn, else its first name)')),
  status: text('Status of the place itself: aktiv, relikt (historical) or planlagt (planned)'),
  type: text('What kind of place it is (navneobjekttype), e.g. By, Tettsted, Fjell, Elv, Gard'),
  lat: v.pipe(v.number(), v.description('Latitude of the place’s representative point, WGS84')),
  lon: v.pipe(v.number(), v.description('Longitude of the place’s representative point, WGS84')),
  names: v.pipe(
    v.array(
      v.object({
        name: v.pipe(v.string(), v.description('The name as written (skrivemåte)')),
        status: text('Status of the name: hovednavn, sidenavn, historisk, ...'),
        spelling_status: text('Status of this spelling: vedtatt, godkjent, historisk, ...'),
        language: text('Language of the name: Norsk, Nordsamisk, Kvensk, ...'),
      }),
    ),
    v.description('Every name of the place, each with its status'),
  ),
}

/** Municipalities and counties, which `/sted` gives and `/punkt` does not. */
export const placeAreaFields = {
  municipalities: v.pipe(
    v.array(v.object({ number: text('Municipality number'), name: text('Municipality name') })),
    v.description('Municipalities the place lies in'),
  ),
  counties: v.pipe(
    v.array(v.object({ number: text('County number'), name: text('County name') })),
    v.description('Counties the place lies in'),
  ),
}

type Place = { [K in keyof typeof placeFields]: v.InferOutput<(typeof placeFields)[K]> }
type PlaceAreas = { [K in keyof typeof placeAreaFields]: v.InferOutput<(typeof placeAreaFields)[K]> }

/**
 * Maps a place of Kartverket's answer; undefined when it has no position or no name.
 *
 * @example
 * toPlace(client, row) // { place_id: 418888, name: 'Oslo', status: 'aktiv', type: 'By', lat: 59.91273, lon: 10.74609, names: [...] }
 */
export function toPlace(client: UpstreamClient, row: UpstreamPlace): Place | undefined {
  const point = row.representasjonspunkt
  const names = row.stedsnavn.map((name) => ({
    name: name.skrivemåte,
    status: name.navnestatus ?? null,
    spelling_status: name.skrivemåtestatus ?? null,
    language: name.språk ?? null,
  }))
  const main = names.find((name) => name.status === 'hovednavn') ?? names[0]
  const id = Number(row.stedsnummer)
  if (!point || !main || !Number.isInteger(id)) return undefined
  assertGeographic(client, point.koordsys)
  return {
    place_id: id,
    name: main.name,
    status: row.stedstatus ?? null,
    type: row.navneobjekttype ?? null,
    lat: point.nord,
    lon: point.øst,
    names,
  }
}

/** The municipalities and counties of a `/sted` place. */
export function placeAreas(row: UpstreamPlace): PlaceAreas {
  return {
    municipalities: (row.kommuner ?? []).map((m) => ({ number: m.kommunenummer ?? null, name: m.kommunenavn ?? null })),
    counties: (row.fylker ?? []).map((f) => ({ number: f.fylkesnummer ?? null, name: f.fylkesnavn ?? null })),
  }
}

/** A place as an entity, linked to `search_place_name?place_id=`. */
export function placeEntity(place: { place_id: number; name: string }): EntityInput {
  return { type: 'place', id: String(place.place_id), name: place.name }
}
