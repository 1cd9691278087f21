import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { osmTag, POI_CATEGORIES } from './poi-categories.js'
import { POI_TYPES } from './poi-query.js'

const categorySchema = v.object({
  key: v.pipe(v.string(), v.description('What search_poi?category= takes, e.g. restaurant')),
  name_no: v.pipe(v.string(), v.description('The category in Norwegian (bokmål)')),
  name_en: v.pipe(v.string(), v.description('The category in English')),
  type: v.pipe(
    v.picklist(POI_TYPES),
    v.description('The OpenStreetMap key it belongs to (what search_poi?type= takes)'),
  ),
  osm_tags: v.pipe(
    v.array(v.string()),
    v.description('The OpenStreetMap tags search_poi asks Overpass for, as key=value'),
  ),
})

/**
 * `list_categories`: the categories `search_poi` knows by name, from the table it searches by,
 * so the list and the search cannot disagree. No upstream is asked.
 *
 * @example
 * // GET /api/v1/kilder/poi_norge/list_categories
 * // { count: 46, types: ['amenity', ...], categories: [{ key: 'restaurant', name_no: 'Restaurant', name_en: 'Restaurant', type: 'amenity', osm_tags: ['amenity=restaurant'] }, ...], has_more_results: false }
 */
export const listCategories = defineOperation({
  description:
    'The categories search_poi takes by name (one per call): restaurant, cafe, fast_food, bar, pub, bicycle_parking and more, each with ' +
    'its Norwegian and English name and the OpenStreetMap tag it is searched as. search_poi also takes any other OpenStreetMap ' +
    'value of the keys listed in types (matched as that value), but only these are known by name. Asks no upstream.',
  parameters: {},
  output: v.object({
    count: v.pipe(v.number(), v.description('Categories known by name, before paging')),
    types: v.pipe(
      v.array(v.picklist(POI_TYPES)),
      v.description(
        'The OpenStreetMap keys search_poi searches (its type parameter), in the order a POI’s type is chosen',
      ),
    ),
    categories: v.array(categorySchema),
  }),
  list: 'categories',
  // Every category on one page unless a client asks for less.
  limit: { default: 100, max: 200 },
  canonicalFieldAliases: { name: ['categories[].name_en'] },
  shapeNote:
    'The public gateway’s clients name list_categories but are not known to read its answer, so the shape is this ' +
    'gateway’s own: the list under categories, with the key search_poi takes.',
  // The table changes only with a release of this package.
  cacheTtlSeconds: 86_400,

  async run() {
    return {
      data: {
        count: POI_CATEGORIES.length,
        types: [...POI_TYPES],
        categories: POI_CATEGORIES.map((c) => ({
          key: c.key,
          name_no: c.name_no,
          name_en: c.name_en,
          type: c.type,
          osm_tags: [osmTag(c)],
        })),
      },
    }
  },
})
