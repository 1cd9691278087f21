import { overrideUpstreams, upstreamOverridesFromEnvironment } from '@allmenning/core'
import type { SourceDefinition } from '@allmenning/core/source'
import { ais, BARENTSWATCH_CLIENT_ID_VARIABLE, BARENTSWATCH_CLIENT_SECRET_VARIABLE } from './ais/index.js'
import { akvakultur } from './akvakultur/index.js'
import { anleggsregisteret } from './anleggsregisteret/index.js'
import { arkivverket } from './arkivverket/index.js'
import { artskart } from './artskart/index.js'
import { avinor } from './avinor/index.js'
import { BANENOR_REQUESTOR_REF_VARIABLE, BANENOR_SUBSCRIPTION_KEY_VARIABLE, banenor } from './banenor/index.js'
import { badetemp, YR_BADETEMP_KEY_VARIABLE } from './badetemp/index.js'
import { entur } from './entur/index.js'
import { firmafakta } from './firmafakta/index.js'
import { FIRMS_KEY_VARIABLE, firms } from './firms/index.js'
import { FROST_CLIENT_ID_VARIABLE, frost } from './frost/index.js'
import { geonorge } from './geonorge/index.js'
import { DIMU_KEY_VARIABLE, kulturarv } from './kulturarv/index.js'
import { kystdatahuset } from './kystdatahuset/index.js'
import { lovdata } from './lovdata/lovdata-source.js'
import { luftkvalitet } from './luftkvalitet/index.js'
import { naturbase } from './naturbase/index.js'
import { mattilsynet } from './mattilsynet/mattilsynet-source.js'
import { NOBIL_KEY_VARIABLE, nobil } from './nobil/index.js'
import { HYDAPI_KEY_VARIABLE, nve } from './nve/index.js'
import { nyheter } from './nyheter/index.js'
import { poiNorge } from './poi_norge/index.js'
import { ssb } from './ssb/index.js'
import { statnett } from './statnett/index.js'
import { strompris } from './strompris/index.js'
import { utdanning } from './utdanning/index.js'
import { VEGVESEN_DATEX_PASSWORD_VARIABLE, VEGVESEN_DATEX_USERNAME_VARIABLE, vegvesen } from './vegvesen/index.js'
import { weather } from './weather/index.js'

/**
 * Every built-in source, with upstream base URLs and time limits taken from
 * `ALLMENNING_UPSTREAM_<ID>` and `ALLMENNING_UPSTREAM_<ID>_TIMEOUT_MS` where set (the real
 * services otherwise), and the keys of the upstreams that need one: `ALLMENNING_NOBIL_API_KEY`,
 * `ALLMENNING_FIRMS_MAP_KEY`, `ALLMENNING_BARENTSWATCH_CLIENT_ID`, `ALLMENNING_BARENTSWATCH_CLIENT_SECRET`,
 * `ALLMENNING_VEGVESEN_DATEX_USERNAME`, `ALLMENNING_VEGVESEN_DATEX_PASSWORD` and `ALLMENNING_NVE_HYDAPI_KEY`.
 * `ALLMENNING_BANENOR_SUBSCRIPTION_KEY` (and the optional `ALLMENNING_BANENOR_REQUESTOR_REF`) for `banenor`.
 * `ALLMENNING_DIMU_API_KEY` is DigitaltMuseum's key, for `kulturarv`'s museum operations.
 * Also `ALLMENNING_FROST_CLIENT_ID` (MET Norway's Frost).
 * Also `ALLMENNING_YR_BADETEMP_API_KEY` (Yr's bathing temperatures).
 * A source whose key is missing is still served; its operations answer 502
 * upstream_not_configured naming the variable. What the example servers and the Lambda example use.
 *
 * @example
 * createGateway({ sources: builtInSources(process.env) })
 */
export function builtInSources(env: Record<string, string | undefined> = {}): SourceDefinition[] {
  return [
    firmafakta(),
    lovdata(),
    avinor(),
    statnett(),
    weather(),
    luftkvalitet(),
    geonorge(),
    kystdatahuset(),
    akvakultur(),
    nobil({ apiKey: env[NOBIL_KEY_VARIABLE] }),
    firms({ mapKey: env[FIRMS_KEY_VARIABLE] }),
    ais({ clientId: env[BARENTSWATCH_CLIENT_ID_VARIABLE], clientSecret: env[BARENTSWATCH_CLIENT_SECRET_VARIABLE] }),
    poiNorge(),
    strompris(),
    entur(),
    vegvesen({
      datexUsername: env[VEGVESEN_DATEX_USERNAME_VARIABLE],
      datexPassword: env[VEGVESEN_DATEX_PASSWORD_VARIABLE],
    }),
    ssb(),
    nve({ hydapiKey: env[HYDAPI_KEY_VARIABLE] }),
    artskart(),
    anleggsregisteret(),
    banenor({
      subscriptionKey: env[BANENOR_SUBSCRIPTION_KEY_VARIABLE],
      requestorRef: env[BANENOR_REQUESTOR_REF_VARIABLE],
    }),
    naturbase(),
    kulturarv({ dimuApiKey: env[DIMU_KEY_VARIABLE] }),
    mattilsynet(),
    nyheter(),
    utdanning(),
    frost({ clientId: env[FROST_CLIENT_ID_VARIABLE] }),
    badetemp({ apiKey: env[YR_BADETEMP_KEY_VARIABLE] }),
    arkivverket(),
  ].map((source) =>
    overrideUpstreams(
      source,
      upstreamOverridesFromEnvironment(
        env,
        source.upstreams.map((u) => u.id),
      ),
    ),
  )
}
