import { defineUpstream } from '@allmenning/core/source'

/** Statnett's driftsdata REST API; `ALLMENNING_UPSTREAM_STATNETT` overrides it in the examples. */
export const statnettApi = defineUpstream({
  id: 'statnett',
  name: 'Statnett driftsdata',
  baseUrl: 'https://driftsdata.statnett.no/restapi',
  publisher: 'Statnett SF',
  // Its answers are a few kilobytes; 256 KiB leaves room for every price area and more.
  maxBodyBytes: 256 * 1024,
})
