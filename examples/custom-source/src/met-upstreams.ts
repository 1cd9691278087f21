import { defineUpstream } from '@allmenning/core/source'

/**
 * MET Norway's Locationforecast. Its terms ask for an identifying User-Agent (the gateway's
 * `upstream.userAgent`) and at most four decimals in a coordinate.
 */
export const met = defineUpstream({
  id: 'met',
  name: 'MET Norway locationforecast',
  baseUrl: 'https://api.met.no/weatherapi/locationforecast/2.0',
  publisher: 'MET Norway',
  license: 'CC BY 4.0',
})

/** MET Norway's MetAlerts: the weather warnings in force, as GeoJSON features. Same terms as above. */
export const metAlerts = defineUpstream({
  id: 'met_alerts',
  name: 'MET Norway MetAlerts',
  baseUrl: 'https://api.met.no/weatherapi/metalerts/2.0',
  publisher: 'MET Norway',
  license: 'CC BY 4.0',
})
