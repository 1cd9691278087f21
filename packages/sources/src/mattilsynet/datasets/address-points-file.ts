/** The columns of the placed-addresses file, in order. */
export const ADDRESS_POINT_COLUMNS = [
  'adresse_key',
  'status',
  'lat',
  'lon',
  'kommunenummer',
  'kommunenavn',
  'adressetekst',
  'checked_at',
] as const

/** The file the geocoding step keeps, in the data directory, across imports of the smilefjes file. */
export const ADDRESS_POINTS_FILE = 'mattilsynet-adressepunkter.csv'
