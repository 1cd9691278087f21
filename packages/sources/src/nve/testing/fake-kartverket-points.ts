import { readFileSync } from 'node:fs'
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'

interface Address {
  kommunenummer: string
  representasjonspunkt: { epsg: string; lat: number; lon: number }
  [key: string]: unknown
}

/**
 * Addresses in Oslo, Bergen and Hemnes in Kartverket's own shape (ours, written after the
 * recorded answers `docs/upstreams/kartverket_adresser.md` describes), for placing a point in
 * its municipality. The nve fakes keep their own copy rather than importing geonorge's, so
 * this testing entry reads only fixtures beside itself, also when built.
 */
const addresses = JSON.parse(
  readFileSync(new URL('./fixtures/kartverket-addresses.json', import.meta.url), 'utf8'),
) as Address[]

const answer = (body: unknown): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'application/json;charset=UTF-8' },
  body: JSON.stringify(body),
})

function metres(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180
  const h =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(h))
}

/**
 * A local Kartverket address API under `/adresser/v1` answering only what `nve` asks of it:
 * `/punktsok` gives the addresses within `radius` metres (100 by default), nearest first, with
 * `meterDistanseTilPunkt`, paged by `treffPerSide` and 0-based `side`, and Kartverket's metadata.
 *
 * @example
 * const kartverket = await startFakeKartverketPoints()
 * createGateway({ sources: [nve()], upstreams: { kartverket_adresser: { baseUrl: kartverket.baseUrl } } })
 */
export async function startFakeKartverketPoints(): Promise<FakeUpstream> {
  return startFakeUpstream(
    {
      '/punktsok': (url) => {
        const lat = Number(url.searchParams.get('lat'))
        const lon = Number(url.searchParams.get('lon'))
        if (
          !url.searchParams.get('lat') ||
          !url.searchParams.get('lon') ||
          !Number.isFinite(lat) ||
          !Number.isFinite(lon)
        ) {
          // The body of Kartverket's 400 is not documented; a short JSON message is assumed.
          return {
            status: 400,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ message: 'lat and lon are required' }),
          }
        }
        const radius = Number(url.searchParams.get('radius') ?? 100)
        const size = Number(url.searchParams.get('treffPerSide') ?? 10)
        const side = Number(url.searchParams.get('side') ?? 0)
        const near = addresses
          .map((a) => ({
            a,
            d: Math.round(metres(lat, lon, a.representasjonspunkt.lat, a.representasjonspunkt.lon) * 10) / 10,
          }))
          .filter(({ d }) => d <= radius)
          .sort((x, y) => x.d - y.d)
        const hits = near.slice(side * size, side * size + size)
        return answer({
          metadata: {
            treffPerSide: size,
            side,
            totaltAntallTreff: near.length,
            viserFra: side * size,
            viserTil: side * size + size,
            sokeStreng: url.search.slice(1),
            asciiKompatibel: true,
          },
          adresser: hits.map(({ a, d }) => ({ ...a, meterDistanseTilPunkt: d })),
        })
      },
    },
    '/adresser/v1',
  )
}
