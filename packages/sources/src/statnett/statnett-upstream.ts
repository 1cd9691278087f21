import { defineUpstream } from '@allmenning/core'

/** Statnett's driftsdata REST API; `ALLMENNING_UPSTREAM_STATNETT` overrides it in the examples. */
export const statnettApi = defineUpstream({
  id: 'statnett',
  name: 'Statnett driftsdata',
  baseUrl: 'https://driftsdata.statnett.no/restapi',
  publisher: 'Statnett SF',
})
