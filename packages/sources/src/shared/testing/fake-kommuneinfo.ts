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
 * starts would (the real search's matching rule is not seen), and `/punkt?nord=&ost=&koordsys=`
 * the municipality whose box holds the point (the smallest, where boxes overlap) with the four
 * string fields of a real capture, or 404 outside them as the real service does outside Norway.
 * A test that replaces a route puts it back from here.
 *
 * @example
 * fake.route('/kommuner/{number}', kommuneinfoRoutes['/kommuner/{number}'])
 */
export const kommuneinfoRoutes: Record<'/kommuner/{number}' | '/sok' | '/punkt', FakeRoute> = {
  '/kommuner/{number}': (_url, _req, params) => {
    const body = kommuneinfoFixtures[params.number!]
    if (body === undefined)
      return fakeReply.json({ message: `Fant ingen kommune med kommunenummer ${params.number}` }, { status: 404 })
    return fakeReply.json(body)
  },
  '/sok': (url) => {
    const text = municipalityKey(url.searchParams.get('knavn') ?? '')
    if (text === '') return fakeReply.json({ message: 'knavn er påkrevd' }, { status: 400 })
    const kommuner = Object.values(kommuneinfoFixtures)
      .map((body) => JSON.parse(body) as Record<string, unknown>)
      .filter((m) =>
        [m.kommunenavn, m.kommunenavnNorsk].some((n) => typeof n === 'string' && municipalityKey(n).startsWith(text)),
      )
      .map(({ kommunenummer, kommunenavn, kommunenavnNorsk, fylkesnavn, fylkesnummer }) => {
        return { kommunenummer, kommunenavn, kommunenavnNorsk, fylkesnavn, fylkesnummer }
      })
    return fakeReply.json({ kommuner })
  },
  '/punkt': (url) => {
    const lat = Number(url.searchParams.get('nord'))
    const lon = Number(url.searchParams.get('ost'))
    if (!url.searchParams.get('koordsys') || !Number.isFinite(lat) || !Number.isFinite(lon)) {
      return fakeReply.json({ message: 'nord, ost og koordsys er påkrevd' }, { status: 400 })
    }
    type Fixture = Record<string, unknown> & { avgrensningsboks: { coordinates: number[][][] } }
    const holding = Object.values(kommuneinfoFixtures)
      .map((body) => JSON.parse(body) as Fixture)
      .map((m) => {
        const corners = m.avgrensningsboks.coordinates.flat()
        const lons = corners.map((c) => c[0]!)
        const lats = corners.map((c) => c[1]!)
        const box = {
          west: Math.min(...lons),
          east: Math.max(...lons),
          south: Math.min(...lats),
          north: Math.max(...lats),
        }
        return { m, box, size: (box.east - box.west) * (box.north - box.south) }
      })
      .filter(({ box }) => lat >= box.south && lat <= box.north && lon >= box.west && lon <= box.east)
      .sort((a, b) => a.size - b.size)
    const found = holding[0]?.m
    if (!found) return fakeReply.json({ message: 'Punktet ligger ikke i en kommune' }, { status: 404 })
    const { fylkesnavn, fylkesnummer, kommunenavn, kommunenummer } = found
    return fakeReply.json({ fylkesnavn, fylkesnummer, kommunenavn, kommunenummer })
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
