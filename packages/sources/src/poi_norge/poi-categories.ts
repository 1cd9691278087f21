import type { PoiType } from './poi-query.js'

/** One category `search_poi` knows by name: the OpenStreetMap tag it stands for, named in Norwegian and English. */
export interface PoiCategory {
  /** What `search_poi?category=` takes; the OpenStreetMap value itself, so a client that knows OSM needs no lookup. */
  key: string
  /** The OpenStreetMap key the value belongs to (what `search_poi?type=` takes). */
  type: PoiType
  /** The OpenStreetMap value searched for. */
  value: string
  name_no: string
  name_en: string
}

const category = (type: PoiType, value: string, name_no: string, name_en: string): PoiCategory => ({
  key: value,
  type,
  value,
  name_no,
  name_en,
})

/**
 * The categories `search_poi` knows by name, in the order `list_categories` lists them: the six
 * the public gateway's clients send first (restaurant, cafe, fast_food, bar, pub,
 * bicycle_parking), then the rest by OpenStreetMap key. `search_poi` asks Overpass for exactly
 * the tag a category names, and `list_categories` reads this table and nothing else, so the two
 * cannot disagree. Any other OpenStreetMap value of the keys in `POI_TYPES` is still searched,
 * as a value of whichever key carries it.
 */
export const POI_CATEGORIES: readonly PoiCategory[] = [
  category('amenity', 'restaurant', 'Restaurant', 'Restaurant'),
  category('amenity', 'cafe', 'Kafé', 'Café'),
  category('amenity', 'fast_food', 'Gatekjøkken', 'Fast food'),
  category('amenity', 'bar', 'Bar', 'Bar'),
  category('amenity', 'pub', 'Pub', 'Pub'),
  category('amenity', 'bicycle_parking', 'Sykkelparkering', 'Bicycle parking'),
  category('amenity', 'ice_cream', 'Iskrem', 'Ice cream'),
  category('amenity', 'pharmacy', 'Apotek', 'Pharmacy'),
  category('amenity', 'doctors', 'Legekontor', 'Doctor'),
  category('amenity', 'dentist', 'Tannlege', 'Dentist'),
  category('amenity', 'hospital', 'Sykehus', 'Hospital'),
  category('amenity', 'toilets', 'Toalett', 'Toilets'),
  category('amenity', 'drinking_water', 'Drikkevann', 'Drinking water'),
  category('amenity', 'fuel', 'Bensinstasjon', 'Fuel station'),
  category('amenity', 'charging_station', 'Ladestasjon', 'Charging station'),
  category('amenity', 'parking', 'Parkering', 'Car park'),
  category('amenity', 'bicycle_rental', 'Sykkelutleie', 'Bicycle rental'),
  category('amenity', 'library', 'Bibliotek', 'Library'),
  category('amenity', 'cinema', 'Kino', 'Cinema'),
  category('amenity', 'theatre', 'Teater', 'Theatre'),
  category('amenity', 'atm', 'Minibank', 'ATM'),
  category('amenity', 'place_of_worship', 'Kirke eller annet gudshus', 'Place of worship'),
  category('amenity', 'police', 'Politi', 'Police'),
  category('shop', 'supermarket', 'Dagligvarebutikk', 'Supermarket'),
  category('shop', 'convenience', 'Nærbutikk', 'Convenience store'),
  category('shop', 'bakery', 'Bakeri', 'Bakery'),
  category('shop', 'kiosk', 'Kiosk', 'Kiosk'),
  category('shop', 'alcohol', 'Vinmonopol', 'Alcohol shop'),
  category('shop', 'bicycle', 'Sykkelbutikk', 'Bicycle shop'),
  category('shop', 'hairdresser', 'Frisør', 'Hairdresser'),
  category('tourism', 'museum', 'Museum', 'Museum'),
  category('tourism', 'hotel', 'Hotell', 'Hotel'),
  category('tourism', 'hostel', 'Vandrerhjem', 'Hostel'),
  category('tourism', 'camp_site', 'Campingplass', 'Campsite'),
  category('tourism', 'attraction', 'Attraksjon', 'Attraction'),
  category('tourism', 'viewpoint', 'Utsiktspunkt', 'Viewpoint'),
  category('tourism', 'information', 'Turistinformasjon', 'Tourist information'),
  category('tourism', 'artwork', 'Kunstverk', 'Artwork'),
  category('leisure', 'park', 'Park', 'Park'),
  category('leisure', 'playground', 'Lekeplass', 'Playground'),
  category('leisure', 'fitness_centre', 'Treningssenter', 'Gym'),
  category('leisure', 'sports_centre', 'Idrettshall', 'Sports centre'),
  category('leisure', 'swimming_pool', 'Svømmebasseng', 'Swimming pool'),
  category('historic', 'monument', 'Monument', 'Monument'),
  category('historic', 'memorial', 'Minnesmerke', 'Memorial'),
  category('emergency', 'defibrillator', 'Hjertestarter', 'Defibrillator'),
]

const byKey = new Map(POI_CATEGORIES.map((c) => [c.key, c]))

/**
 * The category named `key`, or undefined when the table does not name it (search_poi then
 * searches the value under any POI key).
 *
 * @example
 * poiCategory('fast_food') // { key: 'fast_food', type: 'amenity', value: 'fast_food', name_no: 'Gatekjøkken', name_en: 'Fast food' }
 */
export function poiCategory(key: string): PoiCategory | undefined {
  return byKey.get(key)
}

/**
 * The tag a category stands for, as OpenStreetMap writes it.
 *
 * @example
 * osmTag(poiCategory('bakery')!) // 'shop=bakery'
 */
export function osmTag(c: PoiCategory): string {
  return `${c.type}=${c.value}`
}

/**
 * What Overpass is asked for: a category the table names is its own tag (`amenity=fast_food`),
 * unless the client asked for another key with `type`; any other value is matched as a value of
 * the key given, or of any POI key.
 *
 * @example
 * resolveTag('fast_food', undefined) // { type: 'amenity', category: 'fast_food' }
 * resolveTag('bench', undefined) // { type: undefined, category: 'bench' }
 */
export function resolveTag(
  category: string | undefined,
  type: PoiType | undefined,
): { type: PoiType | undefined; category: string | undefined } {
  const known = category === undefined ? undefined : poiCategory(category)
  if (known && (type === undefined || type === known.type)) return { type: known.type, category: known.value }
  return { type, category }
}
