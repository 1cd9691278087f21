import { readFileSync } from 'node:fs'
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'

/** Paths of the two Fiskeridirektoratet services the fakes serve. */
export const fiskeridirPaths = { layer0: '/FiskeridirWFS_akva/MapServer/0/query', sites: '/sites' } as const

type Feature = { type: 'Feature'; id: number; geometry: unknown; properties: Record<string, unknown> }

/** Map layer 0 as ArcGIS pages it, by OBJECTID: points with the layer's fields, (0, 0) and null geometry included. */
export const layer0Features = (
  JSON.parse(readFileSync(new URL('./fixtures/arcgis-layer0-features.json', import.meta.url), 'utf8')) as {
    features: Feature[]
  }
).features

/** The register API's site list, camelCase as its OpenAPI model has it (130 sites, one without position). */
export const pubAquaSites = JSON.parse(
  readFileSync(new URL('./fixtures/pub-aqua-sites.json', import.meta.url), 'utf8'),
) as unknown[]

/** ArcGIS answers JSON errors with status 200 and a text/plain content type. */
export const arcgisErrorReply = (code: number, message: string): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'text/plain;charset=utf-8' },
  body: JSON.stringify({ error: { code, message, details: [] } }),
})

/**
 * One page of a layer query as ArcGIS Server answers `f=geojson`: a FeatureCollection with its
 * `crs`, and `properties.exceededTransferLimit` while more rows remain. The server sends at most
 * `maxRecordCount` rows whatever `resultRecordCount` asks.
 */
export function arcgisPage(features: Feature[], url: URL, maxRecordCount: number): FakeReply {
  const q = url.searchParams
  if (q.get('f') !== 'geojson' || q.get('outSR') !== '4326' || !q.get('where')) {
    return arcgisErrorReply(400, 'Invalid or missing input parameters.')
  }
  const offset = Number(q.get('resultOffset') ?? 0)
  const count = Math.min(Number(q.get('resultRecordCount') ?? maxRecordCount), maxRecordCount)
  const rows = features.slice(offset, offset + count)
  const more = offset + rows.length < features.length
  const collection = {
    type: 'FeatureCollection',
    crs: { type: 'name', properties: { name: 'EPSG:4326' } },
    features: rows,
    ...(more ? { properties: { exceededTransferLimit: true } } : {}),
  }
  return {
    status: 200,
    headers: { 'content-type': 'application/geo+json;charset=UTF-8' },
    body: JSON.stringify(collection),
  }
}

/**
 * A local ArcGIS server under `/server/rest/services` serving aquaculture map layer 0, 10
 * features per page (a maxRecordCount lower than the source asks, as real servers have).
 *
 * @example
 * const gis = await startFakeFiskeridirGis()
 * createGateway({ sources: [akvakultur()], upstreams: { fiskeridir_gis: { baseUrl: gis.baseUrl } } })
 */
export async function startFakeFiskeridirGis(features: Feature[] = layer0Features): Promise<FakeUpstream> {
  return startFakeUpstream(
    { [fiskeridirPaths.layer0]: (url) => arcgisPage(features, url, 10) },
    '/server/rest/services',
  )
}

/**
 * A local pub-aqua under `/pub-aqua/api/v1`: `GET /sites?range=a-b`, inclusive, at most 100 rows,
 * with the register's 400 for a larger range.
 */
export async function startFakePubAqua(sites: unknown[] = pubAquaSites): Promise<FakeUpstream> {
  return startFakeUpstream(
    {
      [fiskeridirPaths.sites]: (url) => {
        const match = /^(\d+)-(\d+)$/.exec(url.searchParams.get('range') ?? '0-99')
        const [from, to] = match ? [Number(match[1]), Number(match[2])] : [0, -1]
        if (!match || to < from || to - from + 1 > 100) {
          return {
            status: 400,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              errors: [
                'The range specification is out of bounds. Limit is set to: 100. Range can be specified e.g: 0-99',
              ],
            }),
          }
        }
        return {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(sites.slice(from, to + 1)),
        }
      },
    },
    '/pub-aqua/api/v1',
  )
}
