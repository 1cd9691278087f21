import * as v from 'valibot'
import { defineOperation, upstreamNotConfigured } from '@allmenning/core/source'
import { nearest } from '../shared/nearest.js'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { pointParameters } from '../shared/wgs84-point.js'
import {
  barentswatchAis,
  BARENTSWATCH_CLIENT_ID_VARIABLE,
  BARENTSWATCH_CLIENT_SECRET_VARIABLE,
} from './barentswatch-upstreams.js'
import { LATEST_COMBINED_PATH, LATEST_COMBINED_QUERY, type VesselPositions } from './vessel-positions.js'
import { vesselsPlaceField } from './place-fields.js'

const nullableNumber = (description: string) => v.pipe(v.nullable(v.number()), v.description(description))
const nullableText = (description: string) => v.pipe(v.nullable(v.string()), v.description(description))

const vesselSchema = v.object({
  vessel_id: v.pipe(v.number(), v.description('MMSI, the AIS id of the vessel')),
  navn: nullableText('Name of the vessel'),
  kallesignal: nullableText('Call sign'),
  imo: nullableNumber('IMO number'),
  skipstype: nullableNumber('AIS ship type code, e.g. 60-69 passenger, 70-79 cargo, 30 fishing'),
  lat: v.pipe(v.number(), v.description('WGS84 latitude of the latest position')),
  lon: v.pipe(v.number(), v.description('WGS84 longitude of the latest position')),
  fart_knop: nullableNumber('Speed over ground in knots'),
  kurs: nullableNumber('Course over ground in degrees'),
  retning: nullableNumber('True heading in degrees'),
  navigasjonsstatus: nullableNumber(
    'AIS navigational status code: 0 under way using engine, 1 at anchor, 5 moored, ...',
  ),
  destinasjon: nullableText('Destination as the crew entered it'),
  eta: nullableText(
    'Estimated time of arrival as the crew entered it: MM-DD HH:mm UTC (AIS carries no year); null when not given',
  ),
  lengde_m: nullableNumber('Length in metres'),
  bredde_m: nullableNumber('Width in metres'),
  dypgang_m: nullableNumber('Draught in metres'),
  sist_oppdatert: nullableText('Time of the latest report, ISO 8601 as BarentsWatch gives it'),
  avstand_km: v.pipe(v.number(), v.description('Distance from lat/lon in kilometres')),
})

/**
 * Builds `find_vessels_nearby` over the shared position snapshot of one source instance, or,
 * without BarentsWatch credentials, an operation that says which variables to set.
 *
 * @example
 * const findVesselsNearby = createFindVesselsNearby(createVesselPositions(createAccessTokens({ clientId, clientSecret })))
 */
export function createFindVesselsNearby(positions: VesselPositions | undefined) {
  return defineOperation({
    description:
      "Vessels whose latest AIS position lies within radius_km of a point, nearest first, from Kystverket's open AIS via BarentsWatch (not fishing vessels under 15 m or leisure craft under 45 m). The positions of all vessels are fetched at most once a minute and filtered here. Needs a BarentsWatch API client with scope ais (ALLMENNING_BARENTSWATCH_CLIENT_ID and _SECRET); without one the answer is a 502 upstream_not_configured.",
    parameters: {
      ...pointParameters(3),
      radius_km: radiusKmParameter({ fallback: 10, max: 200 }),
    },
    output: v.object({
      fartoy: v.array(vesselSchema),
      radius_km: v.pipe(v.number(), v.description('The radius searched, in kilometres')),
    }),
    list: 'fartoy',
    placeField: vesselsPlaceField,
    canonicalFieldAliases: { name: ['fartoy[].navn'], timestamp: ['fartoy[].sist_oppdatert'] },
    shapeNote:
      'data is {fartoy, radius_km, has_more_results} with the row fields of the public gateway (vessel_id as MMSI, navn, kallesignal, imo, skipstype, lat, lon, fart_knop, kurs, destinasjon, sist_oppdatert, avstand_km), so its clients work unchanged; heading, navigational status, ETA and dimensions stand beside them, named in the same language.',
    cacheTtlSeconds: 60,

    async run(params, ctx) {
      const ais = ctx.upstream(barentswatchAis)
      if (!positions) {
        throw upstreamNotConfigured(
          ais,
          BARENTSWATCH_CLIENT_ID_VARIABLE,
          `needs an API key (a BarentsWatch API client with scope ais): set ${BARENTSWATCH_CLIENT_ID_VARIABLE} and ${BARENTSWATCH_CLIENT_SECRET_VARIABLE}`,
        )
      }
      const { vessels, skipped } = await positions.get(ctx)
      const found = nearest({ lat: params.lat, lon: params.lon }, vessels, params.radius_km, (vessel) => vessel)
      const fartoy = found.map(({ item, distanceKm }) => ({
        vessel_id: item.mmsi,
        navn: item.name,
        kallesignal: item.callSign,
        imo: item.imo,
        skipstype: item.shipType,
        lat: item.lat,
        lon: item.lon,
        fart_knop: item.speedKnots,
        kurs: item.course,
        retning: item.heading,
        navigasjonsstatus: item.navigationalStatus,
        destinasjon: item.destination,
        eta: item.eta,
        lengde_m: item.lengthM,
        bredde_m: item.widthM,
        dypgang_m: item.draughtM,
        sist_oppdatert: item.msgtime,
        avstand_km: distanceKm,
      }))
      return {
        data: { fartoy, radius_km: params.radius_km },
        sourceApi: ais.url(LATEST_COMBINED_PATH, LATEST_COMBINED_QUERY),
        rawValues: { vessels_in_snapshot: vessels.length, reports_without_position: skipped },
      }
    },
  })
}
