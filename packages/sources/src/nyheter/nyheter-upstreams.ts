import { defineUpstream } from '@allmenning/core/source'

/**
 * Politiloggen, the police's log of operative messages from the operations centres. Keyless.
 * The default is the API the police's own app and site read since 2026
 * (`api.politiloggen.politiet.no`, Swagger at `/swagger/v1/swagger.json`, licence NLOD 2.0):
 * `/messages` answers `{messages[], totalCount}`. The older address
 * `https://api.politiet.no/politiloggen/v1` (`/messages` answering `{data[], metadata}`) is
 * reported as blocking automated callers; a deployment may still point this upstream there
 * (`ALLMENNING_UPSTREAM_POLITILOGGEN`): the source reads both shapes. Callers without an
 * identifying (bot) User-Agent are refused with 429, so the gateway's own User-Agent matters.
 */
export const politiloggen = defineUpstream({
  id: 'politiloggen',
  name: 'Politiloggen',
  baseUrl: 'https://api.politiloggen.politiet.no',
  publisher: 'Politiet (Norwegian Police Service)',
  license: 'NLOD 2.0',
})

/**
 * NRK's website, for its regional "siste nytt" RSS feeds (`/{region}/siste.rss`). NRK's
 * content is NRK's own: the feeds are offered for showing headlines and a short lead that
 * link back to nrk.no, with NRK named as the source, which is all this source does.
 */
export const nrkFeeds = defineUpstream({
  id: 'nrk_rss',
  name: 'NRK regional news feeds',
  baseUrl: 'https://www.nrk.no',
  publisher: 'NRK (Norsk rikskringkasting)',
  license: "NRK's terms: headlines and leads with a link to nrk.no and NRK named as the source",
  // A feed of a few dozen items is tens of kilobytes.
  maxBodyBytes: 1024 * 1024,
})
