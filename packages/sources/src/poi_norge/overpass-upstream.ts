import { defineUpstream } from '@allmenning/core/source'

/**
 * The public Overpass API over OpenStreetMap. No key, but its operators ask for at most about
 * 10 000 queries a day and point heavy users to their own instance: set
 * `ALLMENNING_UPSTREAM_OVERPASS` to one. Its own query limit is 20 s, so the call may take longer
 * than the gateway's default.
 */
export const overpassApi = defineUpstream({
  id: 'overpass',
  name: 'OpenStreetMap Overpass API',
  baseUrl: 'https://overpass-api.de/api',
  publisher: 'OpenStreetMap contributors',
  license: 'ODbL 1.0',
  timeoutMs: 25_000,
})
