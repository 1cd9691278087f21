import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { defineOperation } from '@allmenning/core/source'
import { kartverketStedsnavn } from './kartverket-upstreams.js'
import { fetchPlacePage, PLACE_PAGING } from './place-name-api.js'
import { placeAreaFields, placeEntity, placeFields } from './place-mapping.js'
import { fourDigits } from './search-parameters.js'
import { fetchWindow } from '../shared/upstream-pages.js'

/**
 * `search_place_name`: places by name from Kartverket's place-name register, each with all its names.
 *
 * @example
 * const { data } = await searchPlaceName.run(
 *   { text: 'Heggmoen', place_id: undefined, kommunenummer: undefined, navneobjekttype: undefined, fuzzy: false, limit: 25, offset: 0 },
 *   ctx,
 * )
 * // { places: [{ place_id: 123456, status: 'aktiv', lat: 65.90951, lon: 14.26984, names: [{ name: 'Heggmoen', status: 'hovednavn', ... }] }] }
 */
export const searchPlaceName = defineOperation({
  description:
    'Places in Norway by name, from Kartverket’s central place-name register (Sentralt stedsnavnregister): towns, ' +
    'farms, mountains, lakes, bus stops and more, each with its kind, status, WGS84 position, municipalities and ' +
    'every name it has (main, secondary, historical, in Norwegian, Sami or Kven). Kartverket orders the hits by ' +
    'kind of place (a county before a brook), then by how well they match. * is a wildcard ("Heggmo*").',
  parameters: {
    text: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.minLength(1, 'must not be empty'),
        v.maxLength(100, 'must be at most 100 characters'),
        v.description('The name to search for (Kartverket’s sok); required unless place_id is given'),
      ),
    ),
    place_id: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.description('Kartverket’s id of one place (stedsnummer), as place_id in an answer'),
      ),
    ),
    kommunenummer: v.optional(fourDigits('Only places in this municipality (four digits)')),
    navneobjekttype: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.minLength(1, 'must not be empty'),
        v.maxLength(60, 'must be at most 60 characters'),
        v.description('Only places of this kind, as Kartverket names it (By, Tettsted, Fjell, Innsjø, Gard, ...)'),
      ),
    ),
    fuzzy: v.optional(v.pipe(v.boolean(), v.description('Also find names spelt a little differently')), false),
  },
  output: v.object({ places: v.array(v.object({ ...placeFields, ...placeAreaFields })) }),
  list: 'places',
  canonicalFieldAliases: { name: ['places[].name', 'places[].names[].name'] },
  shapeNote:
    'data is {places: [{place_id, status, lat, lon, names: [{name, status}]}], has_more_results}, the shape the public ' +
    'gateway’s clients read, with its parameters text, kommunenummer and navneobjekttype; name, type, the spelling ' +
    'status and language of each name, municipalities and counties stand beside them. text may be left out when ' +
    'place_id is given, so that a place found elsewhere links back here.',

  async run(params, ctx) {
    if (params.text === undefined && params.place_id === undefined) {
      throw new GatewayError(400, 'invalid_parameter', 'Invalid parameter: text is required unless place_id is given', {
        details: [{ parameter: 'text', problem: 'is required unless place_id is given', rule: 'required' }],
      })
    }
    const client = ctx.upstream(kartverketStedsnavn)
    const query = {
      sok: params.text,
      stedsnummer: params.place_id,
      knr: params.kommunenummer,
      navneobjekttype: params.navneobjekttype,
      fuzzy: params.fuzzy || undefined,
    }
    const { items, page } = await fetchWindow(params, PLACE_PAGING, (side, size) =>
      fetchPlacePage(client, query, side, size),
    )
    return { data: { places: items }, page }
  },

  entities: (data) => data.places.map(placeEntity),
})
