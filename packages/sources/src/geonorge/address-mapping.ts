import * as v from 'valibot'
import type { UpstreamClient } from '@allmenning/core/source'
import type { UpstreamAddress } from './upstream-shapes.js'
import { assertGeographic } from './wgs84-check.js'

const text = (description: string) => v.pipe(v.nullable(v.string()), v.description(description))
const whole = (description: string) => v.pipe(v.nullable(v.number()), v.description(description))

/** The fields of one address, in `search_address` and `find_addresses_nearby`. */
export const addressFields = {
  address: v.pipe(
    v.string(),
    v.description('The address as Kartverket writes it (adressetekst), e.g. "Robert Levins gate 1"'),
  ),
  street: text('Street name, or the farm or place name of an address without a street (adressenavn)'),
  number: whole('House number'),
  letter: text('Letter after the number, e.g. "B"'),
  additional_name: text('Name that goes with the address, such as a farm or building name (adressetilleggsnavn)'),
  postal_code: text('Postal code, four digits'),
  postal_place: text('Postal place'),
  municipality_number: text('Municipality number (kommunenummer), four digits'),
  municipality: text('Municipality name'),
  gnr: whole('Cadastral farm number (gardsnummer)'),
  bnr: whole('Cadastral holding number (bruksnummer)'),
  fnr: whole('Leasehold number (festenummer)'),
  address_type: text('Vegadresse (a street address) or Matrikkeladresse (an address by cadastral number)'),
  lat: v.pipe(v.number(), v.description('Latitude of the address point, WGS84')),
  lon: v.pipe(v.number(), v.description('Longitude of the address point, WGS84')),
  updated_at: text('When Kartverket last changed the address'),
}

/** One address as this source answers it. */
export type Address = { [K in keyof typeof addressFields]: v.InferOutput<(typeof addressFields)[K]> }

const blank = (value: string | null | undefined) =>
  value === null || value === undefined || value.trim() === '' ? null : value

/**
 * Maps an address of Kartverket's answer; undefined when it has no position (every address
 * this source answers has one, so a client can put it on a map and link to its place).
 *
 * @example
 * toAddress(client, row) // { address: 'Robert Levins gate 1', street: 'Robert Levins gate', number: 1, ..., lat: 59.9141, lon: 10.7466 }
 */
export function toAddress(client: UpstreamClient, row: UpstreamAddress): Address | undefined {
  const point = row.representasjonspunkt
  if (!point) return undefined
  assertGeographic(client, point.epsg)
  const street = blank(row.adressenavn)
  const address =
    blank(row.adressetekst) ??
    [street, row.nummer, blank(row.bokstav)].filter((part) => part !== null && part !== undefined).join(' ')
  return {
    address,
    street,
    number: row.nummer ?? null,
    letter: blank(row.bokstav),
    additional_name: blank(row.adressetilleggsnavn),
    postal_code: blank(row.postnummer),
    postal_place: blank(row.poststed),
    municipality_number: blank(row.kommunenummer),
    municipality: blank(row.kommunenavn),
    gnr: row.gardsnummer ?? null,
    bnr: row.bruksnummer ?? null,
    fnr: row.festenummer ?? null,
    address_type: blank(row.objtype),
    lat: point.lat,
    lon: point.lon,
    updated_at: blank(row.oppdateringsdato),
  }
}
