import { defineUpstream } from '@allmenning/core/source'

/**
 * Mattilsynet's open-data host, where the smilefjes file is published. The operations read the
 * loaded dataset, never this host: it is what `allmenning datasets sync mattilsynet_smilefjes`
 * downloads from (with ETag), declared so descriptors and the demo name it.
 */
export const mattilsynetData = defineUpstream({
  id: 'mattilsynet_data',
  name: 'Mattilsynet open data (smilefjes)',
  baseUrl: 'https://data.mattilsynet.no',
  publisher: 'Mattilsynet (Norwegian Food Safety Authority)',
  license: 'NLOD 2.0',
})

/** Where the file lies on {@link mattilsynetData}. */
export const SMILEFJES_PATH = '/smilefjes-tilsyn.csv'
