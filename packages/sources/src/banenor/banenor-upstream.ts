import { defineUpstream } from '@allmenning/core/source'

/**
 * Bane NOR's real-time train information, SIRI 2.1 EstimatedTimetable (ET), behind Bane NOR's
 * API Management (Azure APIM): a SIRI `ServiceRequest` POSTed as XML to `/rest` answers the
 * journeys of every train on the network, passenger and freight, with their calls. Every call
 * needs the `Ocp-Apim-Subscription-Key` header with a key from Bane NOR's API portal, and the
 * request names its caller in `RequestorRef`. The Network Statement (Annex 3) offers traffic
 * data to external users without payment; no licence text was found, so the licence is named
 * as Bane NOR's terms. `ALLMENNING_UPSTREAM_BANENOR_SIRI_ET` overrides the base URL in the examples.
 */
export const banenorSiriEt = defineUpstream({
  id: 'banenor_siri_et',
  name: 'Bane NOR SIRI ET (real-time train information)',
  baseUrl: 'https://api.banenor.no/customer-info/siri-et/v2.1',
  publisher: 'Bane NOR SF, real-time train information (SIRI ET)',
  license: "Bane NOR's API terms (traffic data offered without payment)",
  // The whole network for the next hours: some megabytes of XML on a busy day.
  maxBodyBytes: 64 * 1024 * 1024,
  // One answer is shared by every board; more than two calls at once would only be a mistake.
  maxConcurrent: 2,
})

/** The path the SIRI request is POSTed to. */
export const SIRI_ET_PATH = '/rest'

/** The variable `builtInSources` reads the subscription key from. */
export const BANENOR_SUBSCRIPTION_KEY_VARIABLE = 'ALLMENNING_BANENOR_SUBSCRIPTION_KEY'

/** The variable `builtInSources` reads the RequestorRef from (optional). */
export const BANENOR_REQUESTOR_REF_VARIABLE = 'ALLMENNING_BANENOR_REQUESTOR_REF'

/** The RequestorRef sent when the deployment names none. */
export const DEFAULT_REQUESTOR_REF = 'allmenning'
