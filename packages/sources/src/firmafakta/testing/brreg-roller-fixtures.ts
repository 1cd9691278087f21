import { gzipSync } from 'node:zlib'

/**
 * Brønnøysund's roles in bulk as it is served (docs/upstreams/brreg_roller.md): one gzip'd JSON
 * array, one element per entity shaped as `/enheter/{orgnr}/roller` answers plus its
 * `organisasjonsnummer`, with role groups holding person and entity roles, resigned and
 * deregistered roles, a deceased person, an entity's name as an array, a bankruptcy estate's
 * `bostyrer` (neither person nor entity), a role without `fratraadt`, and full birth dates (of
 * which only the year is kept).
 */
export function rollerTotalbestand(): Buffer {
  const entities = [
    {
      organisasjonsnummer: '976030788',
      rollegrupper: [
        {
          type: { kode: 'DAGL', beskrivelse: 'Daglig leder/ adm.direktør' },
          sistEndret: '2024-05-01',
          roller: [
            {
              type: { kode: 'DAGL', beskrivelse: 'Daglig leder/ adm.direktør' },
              person: { fodselsdato: '1975-09-23', navn: { fornavn: 'Ola', etternavn: 'Nordmann' }, erDoed: false },
              fratraadt: false,
              avregistrert: false,
              rekkefolge: 0,
            },
          ],
        },
        {
          type: { kode: 'STYR', beskrivelse: 'Styre' },
          roller: [
            // The role of a current chair without `fratraadt`, as some answers leave it out.
            {
              type: { kode: 'LEDE', beskrivelse: 'Styrets leder' },
              person: { fodselsdato: '1962-12-31', navn: { fornavn: 'Åse', etternavn: 'Ødegård' }, erDoed: false },
              avregistrert: false,
            },
            {
              type: { kode: 'MEDL', beskrivelse: 'Styremedlem' },
              person: { fodselsdato: '1975-09-23', navn: { fornavn: 'Ola', etternavn: 'Nordmann' }, erDoed: false },
              fratraadt: true,
              avregistrert: false,
            },
            {
              type: { kode: 'MEDL', beskrivelse: 'Styremedlem' },
              person: { fodselsdato: '1950-04-17', navn: { fornavn: 'Per', etternavn: 'Hansen' }, erDoed: true },
              fratraadt: false,
              avregistrert: false,
            },
            {
              type: { kode: 'MEDL', beskrivelse: 'Styremedlem' },
              person: {
                fodselsdato: '1990-01-01',
                navn: { fornavn: 'Ola', mellomnavn: 'Johan', etternavn: 'Nordmann' },
                erDoed: false,
              },
              valgtAv: { kode: 'AREP', beskrivelse: 'Representant for de ansatte' },
              fratraadt: false,
              avregistrert: false,
            },
          ],
        },
        {
          // A bankruptcy estate's administrator: a `bostyrer` with a plain-string name.
          type: { kode: 'BOBE', beskrivelse: 'Bostyrer' },
          sistEndret: '2026-03-02',
          roller: [
            {
              type: { kode: 'BOBE', beskrivelse: 'Bostyrer' },
              bostyrer: {
                navn: 'Adv. Per Bostyrersen',
                postadresse: { landkode: 'NO', postnummer: '0150', poststed: 'OSLO', adresse: ['Postboks 99 Sentrum'] },
                erDoed: false,
              },
              avregistrert: false,
              rekkefolge: 0,
            },
          ],
        },
        {
          type: { kode: 'REGN', beskrivelse: 'Regnskapsfører' },
          roller: [
            {
              type: { kode: 'REGN', beskrivelse: 'Regnskapsfører' },
              enhet: {
                organisasjonsnummer: '986252932',
                organisasjonsform: { kode: 'ORGL', beskrivelse: 'Organisasjonsledd' },
                navn: ['DIREKTORATET FOR', 'FORVALTNING'],
                erSlettet: false,
              },
              fratraadt: false,
              avregistrert: false,
            },
          ],
        },
      ],
    },
    {
      organisasjonsnummer: '912346234',
      rollegrupper: [
        {
          type: { kode: 'DAGL', beskrivelse: 'Daglig leder/ adm.direktør' },
          roller: [
            {
              type: { kode: 'DAGL', beskrivelse: 'Daglig leder/ adm.direktør' },
              person: { fodselsdato: '1975-09-23', navn: { fornavn: 'OLA', etternavn: 'NORDMANN' } },
              fratraadt: false,
              avregistrert: false,
            },
          ],
        },
        {
          type: { kode: 'STYR', beskrivelse: 'Styre' },
          roller: [
            {
              type: { kode: 'LEDE', beskrivelse: 'Styrets leder' },
              person: { fodselsdato: '1975-09-23', navn: { fornavn: 'Ola', etternavn: 'Nordmann' } },
              fratraadt: false,
              avregistrert: true,
            },
          ],
        },
      ],
    },
    // An element that is not an entity: counted as malformed.
    { feil: 'ukjent' },
  ]
  return gzipSync(Buffer.from(JSON.stringify(entities), 'utf8'))
}
