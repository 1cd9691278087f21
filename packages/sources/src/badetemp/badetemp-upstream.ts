import { defineUpstream } from '@allmenning/core/source'

/** The credit Yr's terms for the bathing temperatures ask every user of them to show. */
export const YR_ATTRIBUTION = 'Badetemperaturer levert av Yr'

/**
 * Yr's API for bathing temperatures (badetemperaturer.yr.no): the six nearest measuring points
 * within 50 km of a point, and one point's recent readings. Every call needs an API key in the
 * `apikey` header, which Yr issues on request (support@yr.no). Its terms: no reading older than
 * five days may be shown, and "Badetemperaturer levert av Yr" must be; commercial use is allowed.
 */
export const yrBadetemperaturer = defineUpstream({
  id: 'yr_badetemperaturer',
  name: 'Yr bathing temperatures',
  baseUrl: 'https://badetemperaturer.yr.no/api',
  publisher: 'Yr (NRK and MET Norway)',
  license: `${YR_ATTRIBUTION} (terms of badetemperaturer.yr.no: no reading older than 5 days; commercial use allowed)`,
})

/** The variable `builtInSources` reads the Yr bathing-temperature key from. */
export const YR_BADETEMP_KEY_VARIABLE = 'ALLMENNING_YR_BADETEMP_API_KEY'

/** Yr's terms: no reading older than this may be shown. */
export const MAX_AGE_DAYS = 5

/** The most points `nearestwatertemperatures` answers, and how far it looks. */
export const NEAREST_CAP = 6
export const NEAREST_RADIUS_KM = 50
