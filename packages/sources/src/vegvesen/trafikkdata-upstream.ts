import { defineUpstream } from '@allmenning/core/source'

/**
 * Statens vegvesen's traffic data API (trafikkdata.no), one GraphQL endpoint: POST the question
 * to the root. No key and no published rate limit; the data is NLOD, to be credited to the
 * Norwegian Public Roads Administration. `ALLMENNING_UPSTREAM_VEGVESEN_TRAFIKKDATA` overrides
 * the base URL in the examples.
 */
export const vegvesenTrafikkdata = defineUpstream({
  id: 'vegvesen_trafikkdata',
  name: 'Statens vegvesen trafikkdata',
  baseUrl: 'https://trafikkdata-api.atlas.vegvesen.no',
  publisher: 'Statens vegvesen (Norwegian Public Roads Administration), trafikkdata.no',
  license: 'NLOD 2.0',
  // The list of every registration point is some megabytes.
  maxBodyBytes: 16 * 1024 * 1024,
  // No limit is published: a few calls at a time is what one gateway asks of it.
  maxConcurrent: 4,
})
