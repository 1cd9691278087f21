export { statnett, statnettApi } from './statnett/index.js'
export { avinor, avinorApi } from './avinor/index.js'
export { firmafakta, brreg } from './firmafakta/index.js'
export { lovdata, lovdataApi, domstolSite, type LovdataOptions } from './lovdata/index.js'
export { weather, metLocationforecast, type WeatherOptions } from './weather/index.js'
export { createRequestBudget, metRequestBudget, type RequestBudget, type RequestBudgetOptions } from './shared/request-budget.js'
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
export { nve, nveFlood, nveLandslide, nveAvalanche } from './nve/index.js'
export { builtInSources } from './built-in-sources.js'
export { builtInDatasets } from './built-in-datasets.js'
