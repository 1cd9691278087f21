import { defineUpstream } from '@allmenning/core/source'

/**
 * Anleggsregisteret's back office: the JSON behind the register's "Finn anlegg" pages, paged as
 * Spring Data pages (`{content[], last, totalPages, …}`). Keyless but undocumented: no filter by
 * municipality is known, so the source reads the whole register (tens of thousands of
 * facilities, 500 a page) and filters it itself. The register's data are open (NLOD), as the
 * Ministry of Culture confirmed to OpenStreetMap Norway in 2019.
 */
export const anleggsregisteretApi = defineUpstream({
  id: 'anleggsregisteret',
  name: 'Anleggsregisteret',
  baseUrl: 'https://backoffice.anleggsregisteret.no/api',
  publisher: 'Kultur- og likestillingsdepartementet (Anleggsregisteret: idrettsanlegg, nærmiljøanlegg og kulturbygg)',
  license: 'NLOD',
  // A page of 500 facilities is some hundred kilobytes; room for the register to grow fields.
  maxBodyBytes: 4 * 1024 * 1024,
})
