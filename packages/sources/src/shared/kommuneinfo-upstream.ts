import { defineUpstream } from '@allmenning/core/source'

/**
 * Kartverket's kommuneinfo API: one municipality by number (its names, county and bounding
 * box), or the municipalities whose name matches a text. Keyless; the sources that take a
 * municipality by number or name (`artskart`, `anleggsregisteret`) share this declaration, so a
 * gateway serving both has one upstream `kartverket_kommuneinfo`. Apart from the lookup in
 * kommuneinfo.ts so that a source's index.ts, which declares its upstreams, imports only this:
 * a bundler puts every module index.ts imports in the cold-start code, whole.
 */
export const kartverketKommuneinfo = defineUpstream({
  id: 'kartverket_kommuneinfo',
  name: 'Kartverket kommuneinfo',
  baseUrl: 'https://ws.geonorge.no/kommuneinfo/v1',
  publisher: 'Kartverket (Norwegian Mapping Authority)',
  license: 'CC BY 4.0',
})
