import { defineUpstream } from '@allmenning/core/source'

/**
 * Riksantikvaren's OGC API Features: Askeladden's cultural heritage register as GeoJSON
 * (`/collections/kulturminner/items`, `limit` at most 1000, `offset`, `bbox`, a CQL2 text
 * `filter`). Keyless, NLOD. The ArcGIS `Distribusjon` services some clients still name were
 * reported gone (404) in 2026; this API is what answers. One client reaches the same collection
 * under a dataset prefix (`https://api.ra.no/kulturminner/collections/...`): set the base URL
 * to that form with `ALLMENNING_UPSTREAM_RIKSANTIKVAREN` if the short form stops answering.
 */
export const riksantikvarenApi = defineUpstream({
  id: 'riksantikvaren',
  name: 'Riksantikvaren OGC API (Askeladden)',
  baseUrl: 'https://api.ra.no',
  publisher: 'Riksantikvaren (Directorate for Cultural Heritage), Askeladden',
  license: 'NLOD',
  // A page of 1000 features with polygons runs to a few megabytes.
  maxBodyBytes: 12 * 1024 * 1024,
})

/**
 * DigitaltMuseum's public API (KulturIT): a Solr search over the museums' objects
 * (`/api/solr/select`) and the list of museums and collections (`/api/owners`, XML). Every call
 * needs `api.key`; KulturIT issues keys on request, and `demo` is allowed for testing (it
 * answers at most 10 records).
 */
export const dimuApi = defineUpstream({
  id: 'dimu',
  name: 'DigitaltMuseum API (KulturIT)',
  baseUrl: 'https://api.dimu.org',
  publisher: 'KulturIT (DigitaltMuseum), on behalf of the museums',
  // Metadata licences differ per museum and object; each object carries its own (`license`).
  license: 'Per museum and object (see each object’s license)',
})

/** The variable `builtInSources` reads the DigitaltMuseum API key from. */
export const DIMU_KEY_VARIABLE = 'ALLMENNING_DIMU_API_KEY'

/** The collection of Askeladden's heritage sites in Riksantikvaren's OGC API. */
export const HERITAGE_ITEMS_PATH = '/collections/kulturminner/items'

/** DigitaltMuseum's Solr search and its list of owners (museums and collections). */
export const DIMU_PATHS = { search: '/api/solr/select', owners: '/api/owners' } as const
