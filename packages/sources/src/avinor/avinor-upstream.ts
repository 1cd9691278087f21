import { defineUpstream } from '@allmenning/core'

/** Avinor's public flight-data feeds; `ALLMENNING_UPSTREAM_AVINOR` overrides it in the examples. */
export const avinorApi = defineUpstream({
  id: 'avinor',
  name: 'Avinor flight data',
  baseUrl: 'https://asrv.avinor.no',
  publisher: 'Avinor AS',
})
