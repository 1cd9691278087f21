import { defineUpstream } from '@allmenning/core/source'

/**
 * Miljødirektoratet's map service of protected areas (`vern`, an ArcGIS Server MapServer;
 * layer 0 holds every area under the nature diversity act and older laws, as Naturbase keeps
 * them). Keyless. Its `query` answers Esri JSON: attributes, polygon `rings` in the spatial
 * reference asked for, dates as milliseconds since 1970, `exceededTransferLimit` when it cut
 * the answer at its page size, and errors as `{error:{code,message,details}}` under HTTP 200.
 * Open data under NLOD; Miljødirektoratet asks to be named as the source.
 */
export const naturbaseVern = defineUpstream({
  id: 'naturbase_vern',
  name: 'Miljødirektoratet Naturbase (vern MapServer)',
  baseUrl: 'https://kart.miljodirektoratet.no/arcgis/rest/services/vern/MapServer',
  publisher: 'Miljødirektoratet (Naturbase): verneområder',
  license: 'NLOD',
  // A large national park's outline, even generalised, is a few megabytes of rings.
  maxBodyBytes: 16 * 1024 * 1024,
})

/** The path of layer 0's query, below the base URL. */
export const VERN_QUERY_PATH = '/0/query'
