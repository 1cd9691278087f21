import { defineUpstream } from '@allmenning/core/source'

/**
 * NASA FIRMS (Fire Information for Resource Management System): active fire detections from
 * the VIIRS and MODIS satellites as CSV. Every call carries a MAP_KEY in its path; keys are
 * free and allow 5 000 transactions per 10 minutes.
 */
export const firmsApi = defineUpstream({
  id: 'firms',
  name: 'NASA FIRMS',
  baseUrl: 'https://firms.modaps.eosdis.nasa.gov/api',
  publisher: 'NASA Fire Information for Resource Management System (FIRMS)',
  license: 'NASA Earth Science open data policy',
})

/** The variable `builtInSources` reads the FIRMS key from. */
export const FIRMS_KEY_VARIABLE = 'ALLMENNING_FIRMS_MAP_KEY'
