import { defineUpstream } from '@allmenning/core/source'

/**
 * Kartverket's address API (Matrikkelen's addresses); `ALLMENNING_UPSTREAM_KARTVERKET_ADRESSER`
 * overrides it in the examples.
 */
export const kartverketAdresser = defineUpstream({
  id: 'kartverket_adresser',
  name: 'Kartverket address API',
  baseUrl: 'https://ws.geonorge.no/adresser/v1',
  publisher: 'Kartverket (Norwegian Mapping Authority)',
  license: 'CC BY 4.0',
})

/**
 * Kartverket's place-name API (Sentralt stedsnavnregister); `ALLMENNING_UPSTREAM_KARTVERKET_STEDSNAVN`
 * overrides it in the examples. Older clients use `https://ws.geonorge.no/stedsnavn/v1`, the same service.
 */
export const kartverketStedsnavn = defineUpstream({
  id: 'kartverket_stedsnavn',
  name: 'Kartverket place names API',
  baseUrl: 'https://api.kartverket.no/stedsnavn/v1',
  publisher: 'Kartverket (Norwegian Mapping Authority)',
  license: 'CC BY 4.0',
})
