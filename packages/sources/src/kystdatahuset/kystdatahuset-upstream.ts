import { defineUpstream } from '@allmenning/core/source'

/**
 * Kystverket's Kystdatahuset open web services. The location register is open (no key); its
 * answers are ASP.NET JSON, the GeoJSON variants a bare FeatureCollection.
 */
export const kystdatahusetApi = defineUpstream({
  id: 'kystdatahuset',
  name: 'Kystverket Kystdatahuset',
  baseUrl: 'https://kystdatahuset.no/ws',
  publisher: 'Kystverket (Norwegian Coastal Administration)',
  license: 'NLOD 2.0',
})
