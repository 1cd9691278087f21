import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { addressFields } from './address-mapping.js'
import { ADDRESS_PAGING, ADDRESS_PATHS, fetchAddressPage } from './address-api.js'
import { kartverketAdresser } from './kartverket-upstreams.js'
import { fourDigits } from './search-parameters.js'
import { fetchWindow } from '../shared/upstream-pages.js'

/**
 * `search_address`: Norwegian addresses by free text, from Kartverket's address register.
 *
 * @example
 * const { data } = await searchAddress.run({ text: 'Robert Levins gate 1', kommunenummer: undefined, postnummer: undefined, fuzzy: false, limit: 25, offset: 0 }, ctx)
 * // { addresses: [{ address: 'Robert Levins gate 1', postal_code: '0150', lat: 59.9141, lon: 10.7466, ... }] }
 */
export const searchAddress = defineOperation({
  description:
    'Norwegian addresses (street addresses and cadastral addresses) matching a free text, from Kartverket’s address ' +
    'register, each with its postal code, municipality, cadastral numbers and a WGS84 position. The text may be a ' +
    'whole address ("Robert Levins gate 1 Oslo") or part of one; * is a wildcard.',
  parameters: {
    text: v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, 'must not be empty'),
      v.maxLength(200, 'must be at most 200 characters'),
      v.description(
        'What to search for: street, number, postal code or place, e.g. "Karl Johans gate 22" (Kartverket’s sok)',
      ),
    ),
    kommunenummer: v.optional(fourDigits('Only addresses in this municipality (four digits, e.g. 0301 for Oslo)')),
    postnummer: v.optional(fourDigits('Only addresses with this postal code (four digits)')),
    fuzzy: v.optional(
      v.pipe(v.boolean(), v.description('Also find addresses spelt a little differently (Kartverket’s fuzzy search)')),
      false,
    ),
  },
  output: v.object({ addresses: v.array(v.object(addressFields)) }),
  list: 'addresses',
  canonicalFieldAliases: { name: ['addresses[].address'] },
  shapeNote:
    'data is {addresses, has_more_results} as the public gateway’s clients read it, with its parameters text and ' +
    'kommunenummer. The fields of each address are not known from its clients; they follow the place rows ' +
    '(flat lat and lon in WGS84, snake_case English names).',

  async run(params, ctx) {
    const client = ctx.upstream(kartverketAdresser)
    const query = {
      sok: params.text,
      kommunenummer: params.kommunenummer,
      postnummer: params.postnummer,
      fuzzy: params.fuzzy || undefined,
    }
    const { items, page } = await fetchWindow(params, ADDRESS_PAGING, (side, size) =>
      fetchAddressPage(client, ADDRESS_PATHS.search, query, side, size),
    )
    return { data: { addresses: items.map(({ distance_m: _distance, ...address }) => address) }, page }
  },
})
