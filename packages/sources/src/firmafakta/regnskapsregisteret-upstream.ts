import { defineUpstream } from '@allmenning/core/source'

/**
 * Regnskapsregisteret's open API: key figures of the last approved annual accounts (from 2018
 * on), one `GET /{orgnr}`. `ALLMENNING_UPSTREAM_BRREG_REGNSKAP` overrides it in the examples.
 */
export const brregRegnskap = defineUpstream({
  id: 'brreg_regnskap',
  name: 'Brønnøysundregistrene Regnskapsregisteret',
  baseUrl: 'https://data.brreg.no/regnskapsregisteret/regnskap',
  publisher: 'Brønnøysundregistrene',
  license: 'NLOD 2.0',
  // One statement is about 2 kB; an array of a few (company and group accounts) stays far below 64 KiB.
  maxBodyBytes: 64 * 1024,
})
