import { defineUpstream } from '@allmenning/core/source'

/**
 * MET Norway's air-quality forecast (airqualityforecast 0.1), made with NILU; Norway only.
 * The same terms as every MET product apply (identifying User-Agent, `Expires`, at most 20
 * requests per second per application); `ALLMENNING_UPSTREAM_MET_AIRQUALITY` overrides the
 * base URL in the examples.
 */
export const metAirquality = defineUpstream({
  id: 'met_airquality',
  name: 'MET Norway Air Quality Forecast',
  baseUrl: 'https://api.met.no/weatherapi/airqualityforecast/0.1',
  publisher: 'MET Norway (Norwegian Meteorological Institute)',
  license: 'NLOD 2.0 / CC BY 4.0',
})
