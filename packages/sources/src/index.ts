export { statnett, statnettApi } from './statnett/index.js'
export { avinor, avinorApi } from './avinor/index.js'
export { firmafakta, brreg } from './firmafakta/index.js'
// From the files that define them, not lovdata/index.ts, which also exports the archive reader
// an import uses: a bundle of the built-in sources then leaves the reader to a chunk of its own.
export { lovdata, type LovdataOptions } from './lovdata/lovdata-source.js'
export { lovdataApi } from './lovdata/lovdata-upstream.js'
export { domstolSite } from './lovdata/case-law-upstream.js'
export { weather, metLocationforecast, kartverketTide, type WeatherOptions } from './weather/index.js'
export {
  createRequestBudget,
  metRequestBudget,
  type RequestBudget,
  type RequestBudgetOptions,
} from './shared/request-budget.js'
export { luftkvalitet, metAirquality, type LuftkvalitetOptions } from './luftkvalitet/index.js'
export { geonorge, kartverketAdresser, kartverketStedsnavn } from './geonorge/index.js'
export { kystdatahuset, kystdatahusetApi } from './kystdatahuset/index.js'
export { akvakultur, fiskeridirGis, fiskeridirAqua } from './akvakultur/index.js'
export { nobil, nobilApi, NOBIL_KEY_VARIABLE, type NobilOptions } from './nobil/index.js'
export { firms, firmsApi, FIRMS_KEY_VARIABLE, type FirmsOptions } from './firms/index.js'
export {
  ais,
  barentswatchAis,
  barentswatchId,
  BARENTSWATCH_CLIENT_ID_VARIABLE,
  BARENTSWATCH_CLIENT_SECRET_VARIABLE,
  type AisOptions,
} from './ais/index.js'
export { poiNorge, overpassApi } from './poi_norge/index.js'
export { strompris, hvakosterstrommen } from './strompris/index.js'
export {
  entur,
  enturJourneyPlanner,
  enturGeocoder,
  enturClientName,
  enturRequestBudget,
  type EnturOptions,
} from './entur/index.js'
export {
  vegvesen,
  vegvesenTrafikkdata,
  vegvesenDatex,
  VEGVESEN_DATEX_USERNAME_VARIABLE,
  VEGVESEN_DATEX_PASSWORD_VARIABLE,
} from './vegvesen/index.js'
export { ssb, ssbApi } from './ssb/index.js'
export { nve, nveFlood, nveLandslide, nveAvalanche, nveHydapi, HYDAPI_KEY_VARIABLE } from './nve/index.js'
export {
  banenor,
  banenorSiriEt,
  BANENOR_REQUESTOR_REF_VARIABLE,
  BANENOR_SUBSCRIPTION_KEY_VARIABLE,
  type BanenorOptions,
} from './banenor/index.js'
export { naturbase, naturbaseVern } from './naturbase/index.js'
export { kulturarv, riksantikvarenApi, dimuApi, DIMU_KEY_VARIABLE, type KulturarvOptions } from './kulturarv/index.js'
export {
  mattilsynet,
  mattilsynetData,
  mattilsynetDatasets,
  geocodeEstablishmentAddresses,
  type MattilsynetOptions,
} from './mattilsynet/index.js'
export { nyheter, politiloggen, nrkFeeds } from './nyheter/index.js'
export { utdanning, udirNsr, udirNbr, udirRequestBudget, type UtdanningOptions } from './utdanning/index.js'
export { frost, frostApi, frostRequestBudget, FROST_CLIENT_ID_VARIABLE, type FrostOptions } from './frost/index.js'
export {
  badetemp,
  yrBadetemperaturer,
  YR_ATTRIBUTION,
  YR_BADETEMP_KEY_VARIABLE,
  type BadetempOptions,
} from './badetemp/index.js'
export { arkivverket, censusRequestBudget, digitalarkivetCensus, type ArkivverketOptions } from './arkivverket/index.js'
export { builtInSources } from './built-in-sources.js'
export { builtInDatasets } from './built-in-datasets.js'
export { artskart, artskartApi, artskartRequestBudget, type ArtskartOptions } from './artskart/index.js'
export {
  anleggsregisteret,
  anleggsregisteretApi,
  anleggsregisteretRequestBudget,
  type AnleggsregisteretOptions,
} from './anleggsregisteret/index.js'
export { kartverketKommuneinfo } from './shared/kommuneinfo-upstream.js'
