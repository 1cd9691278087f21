import { UpstreamError, type UpstreamClient } from '@allmenning/core/source'

/**
 * EPSG codes whose latitude and longitude this source passes on as WGS84: WGS84 itself and
 * ETRS89 (EPSG:4258, Kartverket's default), which in Norway lies within a metre of it.
 */
const geographic = new Set(['4326', '4258'])

/**
 * Checks that a point came back in the geographic CRS asked for. Kartverket answers in any
 * CRS it is asked for (UTM 33, for instance, puts metres in the same fields), so a point in
 * another CRS is a 502 rather than a position hundreds of kilometres off.
 *
 * @example
 * assertGeographic(client, 'EPSG:4326') // passes
 * assertGeographic(client, 25833)       // throws a 502 naming the upstream
 */
export function assertGeographic(client: UpstreamClient, crs: string | number | null | undefined): void {
  if (crs === null || crs === undefined || crs === '') return
  const code = String(crs)
    .replace(/^EPSG:/i, '')
    .trim()
  if (!geographic.has(code)) {
    throw new UpstreamError(
      client,
      'invalid_response',
      `answered coordinates in EPSG:${code} where WGS84 (EPSG:4326 or 4258) was asked for`,
    )
  }
}
