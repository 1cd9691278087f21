import { defineUpstream } from '@allmenning/core/source'

/**
 * MET Norway's Locationforecast 2.0. Its terms ask for an identifying User-Agent (the
 * gateway's `upstream.userAgent`), at most four decimals in coordinates, no request before an
 * answer's `Expires`, and at most 20 requests per second per application;
 * `ALLMENNING_UPSTREAM_MET_LOCATIONFORECAST` overrides the base URL in the examples.
 */
export const metLocationforecast = defineUpstream({
  id: 'met_locationforecast',
  name: 'MET Norway Locationforecast',
  baseUrl: 'https://api.met.no/weatherapi/locationforecast/2.0',
  publisher: 'MET Norway (Norwegian Meteorological Institute)',
  license: 'NLOD 2.0 / CC BY 4.0',
})
