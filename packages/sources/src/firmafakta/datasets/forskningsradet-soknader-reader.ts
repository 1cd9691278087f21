import type { DatasetContent } from '@allmenning/core/source'
import { headerColumns, text } from './header-columns.js'
import { norwegianDate, yearOrDate } from './norwegian-date.js'
import { norwegianNumber } from './norwegian-number.js'
import { orgNrCell } from './org-nr-cell.js'

const columns = {
  prosjektnummer: ['prosjektnummer'],
  tittel: ['prosjekttittel'],
  soknadsdato: ['soknadsdato'],
  prosjekttype: ['prosjekttype'],
  fase: ['prosjektfase'],
  start: ['prosjektstart'],
  slutt: ['prosjektslutt'],
  ansvarlig: ['prosjektansvarlig_navn'],
  kortnavn: ['kortnavn'],
  orgnr: ['organisasjonsnummer'],
  sektor: ['sektor'],
  virkemiddel: ['virkemiddel'],
  utlysning: ['utlysningtittel'],
  fag: ['fagomraade'],
  sokt: ['sokt_belop'],
  tildelt: ['tildelt_belop'],
}

/**
 * How Forskningsrådet's `soknader2` file (`dataset.csv`) is read: comma-separated with
 * RFC 4180 quoting (titles hold commas, quotes and line breaks), UTF-8 without a byte-order
 * mark, dates as `YYYY-MM-DD HH:MM:SS` (the application date is often empty), the project's
 * period as years (`prosjektstart` is "Prosjektets fra-år"), amounts as floats, `0` as the
 * organisation number of foreign, unknown and sub-unit organisations.
 */
export const forskningsradetSoknaderContent: DatasetContent = {
  format: { type: 'delimited', delimiter: ',', quoting: 'rfc4180', encodings: ['utf-8', 'windows-1252'] },
  rows({ header }) {
    const at = headerColumns(
      header,
      columns,
      [
        'tittel',
        'prosjekttype',
        'start',
        'slutt',
        'kortnavn',
        'sektor',
        'virkemiddel',
        'utlysning',
        'fag',
        'sokt',
        'soknadsdato',
      ],
      "Forskningsrådet's soknader2 dataset",
    )
    return (cells) => ({
      table: 'soknader',
      row: {
        prosjektnummer: text(cells, at.prosjektnummer).replace(/\.0$/, ''),
        organisasjonsnummer: orgNrCell(cells[at.orgnr], 'organisasjonsnummer'),
        prosjektansvarlig: text(cells, at.ansvarlig) || text(cells, at.kortnavn) || null,
        prosjekttittel: text(cells, at.tittel) || null,
        prosjekttype: text(cells, at.prosjekttype) || null,
        prosjektfase: text(cells, at.fase) || null,
        soknadsdato: norwegianDate(cells[at.soknadsdato], 'soknadsdato'),
        prosjektstart: yearOrDate(cells[at.start], 'prosjektstart'),
        prosjektslutt: yearOrDate(cells[at.slutt], 'prosjektslutt'),
        sektor: text(cells, at.sektor) || null,
        virkemiddel: text(cells, at.virkemiddel) || null,
        utlysning: text(cells, at.utlysning) || null,
        fagomraade: text(cells, at.fag) || null,
        sokt_belop: norwegianNumber(cells[at.sokt], 'sokt_belop'),
        tildelt_belop: norwegianNumber(cells[at.tildelt], 'tildelt_belop'),
      },
    })
  },
}
