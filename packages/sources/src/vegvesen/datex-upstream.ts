import { defineUpstream } from '@allmenning/core/source'

/**
 * Statens vegvesen's DATEX II 3.1 server: `GET /datexapi/GetSituation/pullsnapshotdata` answers
 * every traffic situation in Norway, current and planned, as one SituationPublication (some
 * megabytes of XML). HTTP Basic with a username and password that Vegvesen issues on
 * registration; its terms keep both confidential, ask that Statens vegvesen be named as the
 * source and that Norwegian texts not be translated. NLOD 2.0.
 * `ALLMENNING_UPSTREAM_VEGVESEN_DATEX` overrides the base URL in the examples.
 */
export const vegvesenDatex = defineUpstream({
  id: 'vegvesen_datex',
  name: 'Statens vegvesen DATEX II',
  baseUrl: 'https://datex-server-get-v3-1.atlas.vegvesen.no',
  publisher: 'Statens vegvesen (Norwegian Public Roads Administration), DATEX II',
  license: 'NLOD 2.0',
  // The whole country's situations in one document: some megabytes, more on a bad winter day.
  maxBodyBytes: 64 * 1024 * 1024,
  // One snapshot is shared by every request; more than two at once would only be a mistake.
  maxConcurrent: 2,
})

/** The path of the snapshot of every situation. */
export const GET_SITUATION_PATH = '/datexapi/GetSituation/pullsnapshotdata'

/** The variables `builtInSources` reads the DATEX username and password from. */
export const VEGVESEN_DATEX_USERNAME_VARIABLE = 'ALLMENNING_VEGVESEN_DATEX_USERNAME'
export const VEGVESEN_DATEX_PASSWORD_VARIABLE = 'ALLMENNING_VEGVESEN_DATEX_PASSWORD'
