import { defineDataset } from '@allmenning/core/source'

/**
 * Brønnøysundregistrene's roles in bulk (`roller/totalbestand`): every role in every entity,
 * rebuilt nightly. Only roles held by living persons that are current (not resigned, not
 * deregistered) are kept, for `personinformasjon`; of a birth date only the year is stored, as
 * everywhere in this gateway.
 *
 * The file's format is described with its reader (`brregRollerContent` in
 * `brreg-roller-reader.ts`), which only an import loads.
 */
export const brregRoller = defineDataset({
  id: 'brreg_roller',
  title: 'Enhetsregisteret: roller (totalbestand)',
  description:
    'Current roles (board, chief executive, auditor contact, partners, ...) held by persons in every entity of Enhetsregisteret.',
  publisher: 'Brønnøysundregistrene',
  license: 'NLOD 2.0',
  attribution: "Contains data from Brønnøysundregistrene's Enhetsregisteret, under NLOD 2.0.",
  origin: {
    kind: 'download',
    page: 'https://data.brreg.no/enhetsregisteret/api/dokumentasjon/no/index.html#tag/Roller/operation/hentRollerTotalbestand',
  },
  changes: 'daily',
  tables: [
    {
      name: 'roller',
      columns: {
        organisasjonsnummer: 'text',
        rollegruppe: 'text',
        rolle_kode: 'text',
        rolle: 'text',
        navn: 'text',
        navn_nokkel: 'text',
        fodselsaar: 'integer',
      },
      // `surname|name key`: a full name by key, everyone with a surname by prefix.
      indexes: [['navn_nokkel', 'fodselsaar']],
    },
  ],
  files: [
    {
      name: 'roller-totalbestand.json.gz',
      url: 'https://data.brreg.no/enhetsregisteret/api/roller/totalbestand',
      // One client found the API refusing specific media types here; any type is accepted.
      headers: { accept: '*/*' },
      content: () => import('./brreg-roller-reader.js').then((reader) => reader.brregRollerContent),
    },
  ],
})
