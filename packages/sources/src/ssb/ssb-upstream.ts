import { defineUpstream } from '@allmenning/core/source'

/**
 * Statistics Norway's PxWebApi v2 (Statistikkbanken): table search, metadata and data as
 * JSON-stat2, no key. `ALLMENNING_UPSTREAM_SSB` overrides it in the examples.
 */
export const ssbApi = defineUpstream({
  id: 'ssb',
  name: 'SSB PxWebApi (Statistics Norway)',
  baseUrl: 'https://data.ssb.no/api/pxwebapi/v2',
  publisher: 'Statistisk sentralbyrå (Statistics Norway)',
  // The licence page ssb.no/en/diverse/lisens; CC BY 4.0 is how SSB's data is commonly reused.
  license: 'CC BY 4.0',
  // The metadata of a table by every municipality since 1986, with its code lists, is some
  // hundreds of kB; the data of the largest query the source allows is smaller.
  maxBodyBytes: 4 * 1024 * 1024,
})
