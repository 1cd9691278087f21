import { defineUpstream } from '@allmenning/core/source'

/**
 * Fiskeridirektoratet's ArcGIS map services: layer 0 of `FiskeridirWFS_akva` is the register's
 * localities with position, holders, species and capacity. No key. Like any ArcGIS server it
 * may answer a failed query with HTTP 200 and `{"error": {...}}`.
 */
export const fiskeridirGis = defineUpstream({
  id: 'fiskeridir_gis',
  name: 'Fiskeridirektoratet kartdata (ArcGIS)',
  baseUrl: 'https://gis.fiskeridir.no/server/rest/services',
  publisher: 'Fiskeridirektoratet (Directorate of Fisheries)',
  license: 'NLOD 2.0',
})

/**
 * The Aquaculture Register's open REST API (pub-aqua). It has no position search and pages at
 * most 100 sites per call, so it is the fallback when the map layer is empty.
 */
export const fiskeridirAqua = defineUpstream({
  id: 'fiskeridir_aqua',
  name: 'Fiskeridirektoratet Akvakulturregisteret',
  baseUrl: 'https://api.fiskeridir.no/pub-aqua/api/v1',
  publisher: 'Fiskeridirektoratet (Directorate of Fisheries)',
  license: 'NLOD 2.0',
})
