import { defineUpstream } from '@allmenning/core/source'

/**
 * NOBIL, Enova's register of public charging stations (search API v3). Every call needs an API
 * key, which NOBIL issues on application; the data is CC BY 4.0 (its `Rights` field says so).
 */
export const nobilApi = defineUpstream({
  id: 'nobil',
  name: 'NOBIL charging station register',
  baseUrl: 'https://nobil.no/api/server',
  publisher: 'Enova SF (NOBIL)',
  license: 'CC BY 4.0',
})

/** The variable `builtInSources` reads the NOBIL key from. */
export const NOBIL_KEY_VARIABLE = 'ALLMENNING_NOBIL_API_KEY'
