/** Hits asked of the geocoder per search; `limit` and `offset` page them here. */
export const AUTOCOMPLETE_SIZE = 50
