import { defineUpstream } from '@allmenning/core/source'

/**
 * hvakosterstrommen.no's price API: one static JSON file per day and price area, free, no key
 * and no documented rate limit. It asks, politely, for the credit "Strømpriser levert av Hva
 * koster strømmen.no" with a link, which every answer's `_provenance` carries as the
 * publisher. `ALLMENNING_UPSTREAM_HVAKOSTERSTROMMEN` overrides the base URL in the examples.
 */
export const hvakosterstrommen = defineUpstream({
  id: 'hvakosterstrommen',
  name: 'hvakosterstrommen.no price API',
  baseUrl: 'https://www.hvakosterstrommen.no/api/v1/prices',
  publisher: 'Hva koster strømmen.no: "Strømpriser levert av Hva koster strømmen.no", https://www.hvakosterstrommen.no',
  // A day of quarter-hours is about 13 KB; 256 KiB leaves room for any day and more.
  maxBodyBytes: 256 * 1024,
})
