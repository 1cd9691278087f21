import { defineUpstream } from '@allmenning/core/source'

/**
 * Digitalarkivet's 1910 census API (Arkivverket, the National Archives of Norway): keyless JSON,
 * documented only in a PDF (xml.arkivverket.no/folketellinger/API_1910_koord.pdf). Its
 * `search_property_geo` finds the census's dwelling places (farms, holdings, street addresses) by
 * name and around a point, `property/{id}` reads one. It answers numbers as text in places and
 * leaves out the coordinates of the places it has not mapped (a fifth or more of them).
 *
 * Licence: the API states none, and no terms page for it was found. Arkivverket released the 1910
 * census as open government data (it offered it to DIFI's open-data competition Apps4Norge in 2013),
 * and the licence of Norway's open government data is NLOD; the credit asked for is the archive's name.
 */
export const digitalarkivetCensus = defineUpstream({
  id: 'digitalarkivet',
  name: 'Digitalarkivet 1910 census API (Arkivverket)',
  baseUrl: 'https://api.digitalarkivet.no/v1/census/1910',
  publisher: 'Arkivverket (the National Archives of Norway), Digitalarkivet: Folketelling 1910',
  license: 'NLOD (assumed: the API states no licence; Arkivverket released the 1910 census as open government data)',
  // A page of 100 properties with their residents is some hundred kilobytes.
  maxBodyBytes: 4 * 1024 * 1024,
})
