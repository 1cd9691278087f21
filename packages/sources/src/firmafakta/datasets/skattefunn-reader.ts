import { DatasetRowError, type DatasetContent } from '@allmenning/core/source'
import { headerColumns, text } from './header-columns.js'
import { norwegianDate, yearOrDate } from './norwegian-date.js'
import { orgNrCell } from './org-nr-cell.js'

const columns = {
  nummer: ['Søknadsnummer', 'Prosjektnummer'],
  bedrift: ['Prosjektansvarlig', 'Bedriftsnavn'],
  tittel: ['Prosjekttittel'],
  orgnr: ['Org.nr', 'Organisasjonsnummer', 'Orgnr'],
  innsendt: ['Søknadsdato', 'Innsendt dato'],
  fylke: ['Fylke'],
  kommune: ['Kommune', 'Kommunenavn'],
  godkjent: ['GODKJENT?', 'Søknad godkjent'],
  avslaatt: ['Søknad avslått'],
  fra: ['Fra-dato', 'Prosjektets fra-år'],
  til: ['Til-dato', 'Prosjektets til-år'],
  vedtak: ['Vedtaksdato'],
  sammendrag: ['Populærvitenskapelig sammendrag'],
}

// The historical file's approval and rejection cells: a date, or an Excel boolean (read as
// `true`/`false`); FALSE, 0 and NEI mean there was no such decision.
const decided = (cell: string) => cell !== '' && !/^(false|0|nei)$/i.test(cell)

function status(cells: string[], at: Record<keyof typeof columns, number>): string {
  const approved = text(cells, at.godkjent)
  if (at.avslaatt < 0) {
    // The rolling file: JA or NEI.
    if (/^ja$/i.test(approved)) return 'godkjent'
    if (/^nei$/i.test(approved)) return 'avslått'
    return 'under behandling'
  }
  if (decided(approved)) return 'godkjent'
  if (decided(text(cells, at.avslaatt))) return 'avslått'
  return 'under behandling'
}

/**
 * How SkatteFUNN's workbooks are read, the historical one (2002–2024) and the rolling one.
 * Their columns differ (`Org.nr` as a number in one, `Organisasjonsnummer` as text in the
 * other; `GODKJENT?` JA/NEI against separate approval and rejection cells holding a date or a
 * boolean); one reader takes either.
 */
export const skattefunnContent: DatasetContent = {
  format: { type: 'xlsx' },
  rows({ header }) {
    const at = headerColumns(
      header,
      columns,
      ['tittel', 'fylke', 'kommune', 'avslaatt', 'fra', 'til', 'vedtak', 'sammendrag', 'godkjent'],
      'a SkatteFUNN workbook',
    )
    return (cells) => {
      const nummer = text(cells, at.nummer)
      if (!/^\d+$/.test(nummer)) throw new DatasetRowError(`application number "${nummer}" is not a number`)
      return {
        table: 'soknader',
        row: {
          soknadsnummer: nummer,
          organisasjonsnummer: orgNrCell(cells[at.orgnr], 'Org.nr'),
          bedrift: text(cells, at.bedrift),
          prosjekttittel: text(cells, at.tittel) || null,
          innsendt: norwegianDate(cells[at.innsendt], 'Søknadsdato'),
          status: status(cells, at),
          fra: yearOrDate(cells[at.fra], 'Fra-dato'),
          til: yearOrDate(cells[at.til], 'Til-dato'),
          vedtaksdato: at.vedtak < 0 ? null : norwegianDate(cells[at.vedtak], 'Vedtaksdato'),
          fylke: text(cells, at.fylke) || null,
          kommune: text(cells, at.kommune) || null,
          sammendrag: text(cells, at.sammendrag) || null,
        },
      }
    }
  },
}
