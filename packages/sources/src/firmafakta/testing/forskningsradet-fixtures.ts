/**
 * Forskningsrådet's soknader2 `dataset.csv` in its real format (docs/upstreams/forskningsradet_soknader.md):
 * comma-separated, RFC 4180 quoting (a title with commas, doubled quotes and a line break),
 * UTF-8 without a byte-order mark, LF line ends, `YYYY-MM-DD HH:MM:SS` dates or none, the
 * project's period and the call's as years, float amounts, `0` for a foreign organisation,
 * and a rejected application.
 */
const header =
  'prosjektnummer,prosjekttittel,soknadsfrist,soknadsdato,utlysnings_id,utlysningsaktivitet,utlysningtittel,prosjekttype,soknadstype,soknadstypevariant,sokstart,sokslutt,prosjektfase,prosjektstart,prosjektslutt,prosjektleder_kjonn,prosjektansvarlig_type,prosjektansvarlig_navn,kortnavn,organisasjonsnummer,kp1,kp2,sektor,kategori,kommune,kommunenummer,fylke,fylkenummer,landsdel,virkemiddel_sekvens,virkemiddel,hovedaktivitet_sekvens,hovedaktivitet,aktivitet,aktivitet_kode,fagomraade,fag,fagdisiplin,dr_stip_aarsverk,postdok_aarsverk,sokt_belop,tildelt_belop,prosjektleder'

// RFC 4180: a field holding a comma, a quote or a line break is quoted, its quotes doubled.
const field = (cell: string) => (/[,"\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)

const record = (fields: Record<string, string>): string[] => header.split(',').map((name) => fields[name] ?? '')

const applications: Array<Record<string, string>> = [
  {
    prosjektnummer: '101367',
    prosjekttittel: 'FTR økonomisk driftsbidrag (videreført i prosjekt 245635)',
    soknadsdato: '1994-12-16 00:00:00',
    prosjekttype: 'Institusjonsstøtte',
    prosjektfase: 'Avsluttet',
    prosjektstart: '1995-01-01 00:00:00',
    prosjektslutt: '2004-12-31 00:00:00',
    prosjektansvarlig_navn: 'FJORDVIK TEKNOLOGIRÅD',
    kortnavn: 'FTR',
    organisasjonsnummer: '912345645',
    kp1: '930',
    kp2: '019',
    sektor: 'Øvrige',
    virkemiddel: 'Basisbevilgninger',
    fagomraade: 'Teknologi',
    sokt_belop: '1300000.0',
    tildelt_belop: '11700000.0',
    prosjektleder: 'Ola Fjordvik',
  },
  {
    prosjektnummer: '245635',
    prosjekttittel: 'Teknologi, samfunn og "grønn" omstilling:\nen ny fase',
    soknadsdato: '2015-02-11 00:00:00',
    prosjekttype: 'Forskerprosjekt',
    prosjektfase: 'Bevilgning',
    sokstart: '2015',
    sokslutt: '2024',
    prosjektstart: '2015',
    prosjektslutt: '2025',
    prosjektansvarlig_navn: 'FJORDVIK TEKNOLOGIRÅD',
    organisasjonsnummer: '912345645',
    sektor: 'Øvrige',
    virkemiddel: 'FRIPRO',
    fagomraade: 'Samfunnsvitenskap',
    sokt_belop: '4000000.0',
    tildelt_belop: '3500000.5',
    prosjektleder: 'Kari Nordmann',
  },
  {
    prosjektnummer: '300001',
    prosjekttittel: 'Avslått søknad',
    soknadsfrist: '2021-05-05 13:00:00',
    soknadsdato: '2021-05-05 00:00:00',
    prosjekttype: 'Forskerprosjekt',
    prosjektfase: 'Avslag',
    sokstart: '2022',
    sokslutt: '2025',
    prosjektstart: '2022',
    prosjektslutt: '2025',
    prosjektansvarlig_navn: 'FJORDVIK TEKNOLOGIRÅD',
    organisasjonsnummer: '912345645',
    sokt_belop: '8000000.0',
    tildelt_belop: '0.0',
  },
  {
    prosjektnummer: '280000',
    prosjekttittel: 'Foreign partner project',
    prosjektfase: 'Bevilgning',
    prosjektstart: '2018',
    prosjektslutt: '2020',
    prosjektansvarlig_navn: 'UNIVERSITY OF EXAMPLE',
    organisasjonsnummer: '0',
    kp1: '800',
    kp2: '00',
    sektor: 'Utlandet',
    sokt_belop: '100.0',
    tildelt_belop: '100.0',
  },
]

/**
 * The records of {@link soknaderCsv} as the import's reader yields them from the file, header
 * first, quotes undone: for the in-memory dataset store.
 *
 * @example
 * import { forskningsradetSoknader } from '../datasets/forskningsradet-soknader.js'
 * await store.loadFiles(forskningsradetSoknader, [{ file: 'dataset.csv', records: soknaderRecords() }])
 */
export function soknaderRecords(): string[][] {
  return [header.split(','), ...applications.map(record)]
}

/** The file itself: {@link soknaderRecords} written as the publisher writes them. */
export function soknaderCsv(): Buffer {
  const lines = soknaderRecords().map((cells) => cells.map(field).join(','))
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8')
}
