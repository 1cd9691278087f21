import { checkUpstreamShape, type QueryValues, type UpstreamClient } from '@allmenning/core/source'
import { toAddress, type Address } from './address-mapping.js'
import { addressPage } from './upstream-shapes.js'
import type { UpstreamPage } from '../shared/upstream-pages.js'

/** Paths of the address API. */
export const ADDRESS_PATHS = { search: '/sok', point: '/punktsok' } as const

/** The address API numbers its pages from 0 and has no documented depth limit. */
export const ADDRESS_PAGING = { first: 0 } as const

/**
 * One page of addresses from `/sok` or `/punktsok`, in WGS84, with each address's distance
 * when the API gives one. Addresses without a position are left out.
 *
 * @example
 * await fetchAddressPage(client, ADDRESS_PATHS.search, { sok: 'Robert Levins gate' }, 0, 25)
 */
export async function fetchAddressPage(
  client: UpstreamClient,
  path: string,
  query: QueryValues,
  page: number,
  size: number,
): Promise<UpstreamPage<Address & { distance_m: number | null }>> {
  // utkoordsys=4326 asks for WGS84; the default would be ETRS89 (EPSG:4258).
  const response = await client.getJson(path, { query: { ...query, utkoordsys: 4326, treffPerSide: size, side: page } })
  const body = checkUpstreamShape(client, addressPage, response.body, 'the addresses')
  const items: (Address & { distance_m: number | null })[] = []
  for (const row of body.adresser) {
    const address = toAddress(client, row)
    if (!address) continue
    const distance = row.meterDistanseTilPunkt
    items.push({
      ...address,
      distance_m: distance === null || distance === undefined ? null : Math.round(distance * 10) / 10,
    })
  }
  return { items, total: body.metadata?.totaltAntallTreff ?? undefined }
}
