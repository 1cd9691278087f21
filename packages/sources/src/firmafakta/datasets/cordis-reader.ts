import { DatasetRowError, type DatasetContent, type TabularContent } from '@allmenning/core/source'
import { headerColumns, text } from './header-columns.js'
import { norwegianDate } from './norwegian-date.js'
import { norwegianNumber } from './norwegian-number.js'

const projectColumns = {
  id: ['id'],
  acronym: ['acronym'],
  status: ['status'],
  title: ['title'],
  start: ['startDate'],
  end: ['endDate'],
  totalCost: ['totalCost'],
  maxContribution: ['ecMaxContribution'],
  programme: ['frameworkProgramme'],
  scheme: ['fundingScheme'],
}

const organisationColumns = {
  project: ['projectID'],
  pic: ['organisationID'],
  vat: ['vatNumber'],
  name: ['name'],
  country: ['country'],
  role: ['role'],
  contribution: ['ecContribution'],
  netContribution: ['netEcContribution'],
  totalCost: ['totalCost'],
  sme: ['SME'],
}

/**
 * The Norwegian organisation number in a CORDIS VAT number: `NO` + nine digits + `MVA`,
 * written with or without spaces and dots.
 *
 * @example
 * orgNrFromVat('NO 974 760 843 MVA') // '974760843'
 * orgNrFromVat('DE123456789') // null
 */
export function orgNrFromVat(vat: string): string | null {
  const match = /^NO(\d{9})(MVA)?$/.exec(vat.toUpperCase().replace(/[\s.-]/g, ''))
  return match ? match[1]! : null
}

// CORDIS writes amounts with a point, but some exports carry a decimal comma.
const amount = (cell: string | undefined, column: string) => norwegianNumber(cell, column)

function projects(programme: string): TabularContent {
  return {
    format: { type: 'delimited', delimiter: ';', quoting: 'rfc4180', encodings: ['utf-8'] },
    rows({ header }) {
      const at = headerColumns(
        header,
        projectColumns,
        ['acronym', 'status', 'start', 'end', 'totalCost', 'maxContribution', 'scheme', 'programme'],
        `a CORDIS project.csv`,
      )
      return (cells) => {
        const id = text(cells, at.id)
        if (!/^\d+$/.test(id)) throw new DatasetRowError(`id "${id}" is not a project number`)
        return {
          table: 'prosjekter',
          row: {
            prosjekt_id: id,
            rammeprogram: text(cells, at.programme) || programme,
            akronym: text(cells, at.acronym) || null,
            tittel: text(cells, at.title),
            status: text(cells, at.status) || null,
            start: norwegianDate(cells[at.start], 'startDate'),
            slutt: norwegianDate(cells[at.end], 'endDate'),
            total_kostnad: amount(cells[at.totalCost], 'totalCost'),
            eu_bidrag_maks: amount(cells[at.maxContribution], 'ecMaxContribution'),
            finansieringsordning: text(cells, at.scheme) || null,
          },
        }
      }
    },
  }
}

const organisations: TabularContent = {
  format: { type: 'delimited', delimiter: ';', quoting: 'rfc4180', encodings: ['utf-8'] },
  rows({ header }) {
    const at = headerColumns(
      header,
      organisationColumns,
      ['vat', 'contribution', 'netContribution', 'totalCost', 'sme', 'country'],
      'a CORDIS organization.csv',
    )
    return (cells) => {
      const project = text(cells, at.project)
      if (!/^\d+$/.test(project)) throw new DatasetRowError(`projectID "${project}" is not a project number`)
      const vat = text(cells, at.vat)
      const country = text(cells, at.country).toUpperCase()
      // Only Norwegian participants are kept: the operations answer for Norwegian organisations.
      if (country !== 'NO' && !orgNrFromVat(vat)) return null
      return {
        table: 'deltakere',
        row: {
          prosjekt_id: project,
          pic: text(cells, at.pic) || null,
          organisasjonsnummer: orgNrFromVat(vat),
          mva_nummer: vat || null,
          navn: text(cells, at.name),
          rolle: text(cells, at.role) || null,
          eu_bidrag: amount(cells[at.contribution], 'ecContribution'),
          netto_eu_bidrag: amount(cells[at.netContribution], 'netEcContribution'),
          total_kostnad: amount(cells[at.totalCost], 'totalCost'),
          sme: text(cells, at.sme).toLowerCase() === 'true' ? 1 : 0,
        },
      }
    }
  },
}

/**
 * How CORDIS's Horizon Europe zip (`cordis-HORIZONprojects-csv.zip`) is read: its
 * `project.csv` and `organization.csv` (`;`-separated, RFC 4180 quoting, UTF-8). Only
 * Norwegian participants are kept, matched to an organisation number by their VAT number
 * (`NO<orgnr>MVA`, see {@link orgNrFromVat}).
 */
export const cordisHorizonContent: DatasetContent = {
  format: { type: 'zip' },
  members: { 'project.csv': projects('HORIZON'), 'organization.csv': organisations },
}

/** How CORDIS's Horizon 2020 zip (`cordis-h2020projects-csv.zip`) is read: as {@link cordisHorizonContent}. */
export const cordisH2020Content: DatasetContent = {
  format: { type: 'zip' },
  members: { 'project.csv': projects('H2020'), 'organization.csv': organisations },
}
