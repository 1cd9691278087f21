import { defineUpstream } from '@allmenning/core/source'

/** Avinor's public flight-data feeds; `ALLMENNING_UPSTREAM_AVINOR` overrides it in the examples. */
export const avinorApi = defineUpstream({
  id: 'avinor',
  name: 'Avinor flight data',
  baseUrl: 'https://asrv.avinor.no',
  publisher: 'Avinor AS',
  // Oslo over the widest window (96 hours back, 144 ahead) is about 6000 flights, some 3 MB of
  // XML; it is read by a streaming parser, a slice at a time between turns of the event loop.
  maxBodyBytes: 4 * 1024 * 1024,
})
