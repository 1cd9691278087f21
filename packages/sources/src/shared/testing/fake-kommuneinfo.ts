import { fakeReply, startFakeUpstream, type FakeRoute, type FakeUpstream } from '@allmenning/core/testing'
import { municipalityKey } from '../kommuneinfo.js'
import { kommuneinfoBodies } from './kommuneinfo-bodies.js'

/**
 * The municipalities the fake knows, by number, as the bodies of `/kommuner/{number}`: Oslo
 * (0301), Bærum (3201), Bergen (4601), the two Herøy (1515 in Møre og Romsdal, 1818 in
 * Nordland) and Deatnu-Tana (5636, whose Norwegian name is Tana). The shape follows clients'
 * models and a published example (`avgrensningsboks` as a GeoJSON polygon in
 * EPSG:4258, `gyldigeNavn` padded with nulls); the boxes are our own, rounded values.
 */
export const kommuneinfoFixtures: Record<string, string> = kommuneinfoBodies

/**
 * The routes of the fake kommuneinfo, by path: `/kommuner/{number}` answers a fixture or 404
 * (as the real service does for a point outside Norway; for an unknown number not seen), and
 * `/sok?knavn=` every fixture whose name begins with the text, as a search that matches name
 * starts would (the real search's matching rule is not seen). A test that replaces a route
 * puts it back from here. `/punkt?nord=&ost=` names the fixture whose box holds the point, as
 * kommuneinfo's point lookup answers (`kommunenummer`, `kommunenavn`, `fylkesnummer`,
 * `fylkesnavn`), and 404 elsewhere (the real answer at sea not seen).
 *
 * @example
 * fake.route('/kommuner/{number}', kommuneinfoRoutes['/kommuner/{number}'])
 */
export const kommuneinfoRoutes: Record<'/kommuner/{number}' | '/sok' | '/punkt', FakeRoute> = {
  '/kommuner/{number}': (_url, _req, params) => {
    const body = kommuneinfoFixtures[params.number!]
    if (body === undefined) return fakeReply.json({ message: `Fant ingen kommune med kommunenummer ${params.number}` }, { status: 404 })
    return fakeReply.json(body)
  },
  '/sok': (url) => {
    const text = municipalityKey(url.searchParams.get('knavn') ?? '')
    if (text === '') return fakeReply.json({ message: 'knavn er påkrevd' }, { status: 400 })
    const kommuner = Object.values(kommuneinfoFixtures)
      .map((body) => JSON.parse(body) as Record<string, unknown>)
      .filter((m) => [m.kommunenavn, m.kommunenavnNorsk].some((n) => typeof n === 'string' && municipalityKey(n).startsWith(text)))
      .map(({ kommunenummer, kommunenavn, kommunenavnNorsk, fylkesnavn, fylkesnummer }) => {
        return { kommunenummer, kommunenavn, kommunenavnNorsk, fylkesnavn, fylkesnummer }
      })
    return fakeReply.json({ kommuner })
  },
  '/punkt': (url) => {
    const lat = Number(url.searchParams.get('nord'))
    const lon = Number(url.searchParams.get('ost'))
    if (!Number.isFinite(lat) || !Number.isFinite(lon)) return fakeReply.json({ message: 'nord og ost er påkrevd' }, { status: 400 })
    for (const body of Object.values(kommuneinfoFixtures)) {
      const m = JSON.parse(body) as { avgrensningsboks: { coordinates: number[][][] } } & Record<string, unknown>
      const ring = m.avgrensningsboks.coordinates[0]!
      const lons = ring.map((p) => p[0]!)
      const lats = ring.map((p) => p[1]!)
      if (lat >= Math.min(...lats) && lat <= Math.max(...lats) && lon >= Math.min(...lons) && lon <= Math.max(...lons)) {
        const { fylkesnavn, fylkesnummer, kommunenavn, kommunenummer } = m
        return fakeReply.json({ fylkesnavn, fylkesnummer, kommunenavn, kommunenummer })
      }
    }
    return fakeReply.json({ message: 'Fant ingen kommune i punktet' }, { status: 404 })
  },
}

/**
 * A local Kartverket kommuneinfo under `/kommuneinfo/v1`, answering {@link kommuneinfoRoutes}.
 *
 * @example
 * const kommuneinfo = await startFakeKommuneinfo()
 * createGateway({ sources: [artskart()], upstreams: { kartverket_kommuneinfo: { baseUrl: kommuneinfo.baseUrl } } })
 */
export async function startFakeKommuneinfo(): Promise<FakeUpstream> {
  return startFakeUpstream({ ...kommuneinfoRoutes }, { prefix: '/kommuneinfo/v1' })
}
