import { DatasetRowError, defineDataset } from '@allmenning/core/source'
import { headerColumns } from './header-columns.js'
import { nameWords } from './name-key.js'
import { wholeCount } from './norwegian-number.js'

/** The columns of Skatteetaten's record description, by every name seen for them. */
const columns = {
  orgnr: ['Orgnr', 'Organisasjonsnummer'],
  selskap: ['Selskap', 'Navn selskap'],
  klasse: ['Aksjeklasse'],
  eier: ['Navn aksjonær', 'Aksjonær'],
  eierId: ['Fødselsår/orgnr', 'Fødselsår/orgnr.', 'Fodselsar/orgnr'],
  sted: ['Postnr/sted', 'Postnr sted'],
  land: ['Landkode'],
  antall: ['Antall aksjer'],
  antallSelskap: ['Antall aksjer selskap'],
}

// A lone space is how the register writes "no value".
const blank = (cell: string | undefined) => (cell ?? '').trim()

/**
 * Skatteetaten's Aksjonærregisteret: every shareholding in Norwegian limited companies at the
 * end of a year. There is no API: the extract is ordered from Skatteetaten and arrives by
 * e-mail, so it is loaded with `allmenning datasets import aksjonaerregisteret <file>`.
 *
 * The file is `;`-separated without quoting: a `"` is an ordinary character (names such as
 * `"NORRSKEN MUTUAL HOLDING LTD (PUBL`), and foreign addresses hold unquoted `;`, so a record
 * with more fields than the header has the surplus folded back into `Postnr/sted`. Counts may
 * carry no-break-space thousands separators; duplicate rows per company, class and owner
 * are summed. UTF-8 with a byte-order mark or windows-1252.
 */
export const aksjonaerregisteret = defineDataset({
  id: 'aksjonaerregisteret',
  title: 'Aksjonærregisteret (Skatteetaten)',
  description:
    'Shareholdings in Norwegian limited companies at the end of a year: company, share class, owner (a person with birth year, ' +
    "or a company with organisation number), postcode and place, country, number of shares, and the company's total.",
  publisher: 'Skatteetaten',
  license: 'NLOD 2.0',
  attribution:
    "Contains data from Skatteetaten's Aksjonærregisteret, under the Norwegian Licence for Open Government Data (NLOD) 2.0.",
  origin: {
    kind: 'order',
    page: 'https://www.skatteetaten.no/deling/aksjonarregisteret/',
    instructions:
      'Order the extract for a year at https://www.skatteetaten.no/deling/aksjonarregisteret/ (a year opens in May of the year after); ' +
      'it arrives within five working days as a download link by e-mail. Then run: npx allmenning datasets import aksjonaerregisteret <file> --published <YYYY-12-31>',
  },
  changes: 'yearly',
  tables: [
    {
      name: 'aksjeposter',
      columns: {
        selskap_orgnr: 'text',
        selskap: 'text',
        aksjeklasse: 'text',
        eier_navn: 'text',
        eier_id: 'text',
        eier_nokkel: 'text',
        postnr_sted: 'text',
        landkode: 'text',
        antall_aksjer: 'integer',
        antall_aksjer_selskap: 'integer',
      },
      key: ['selskap_orgnr', 'aksjeklasse', 'eier_navn', 'eier_id'],
      sum: ['antall_aksjer'],
      // One index finds an owner either way: a company by its number, a person by surname, name
      // key and birth year (`surname|name key|year`), or everyone with a surname by prefix.
      indexes: [['selskap_orgnr', 'antall_aksjer'], ['eier_nokkel']],
    },
  ],
  files: [
    {
      name: 'aksjonaerregisteret.csv',
      content: {
        format: { type: 'delimited', delimiter: ';', quoting: 'none', encodings: ['utf-8', 'windows-1252'] },
        rows({ header }) {
          const at = headerColumns(header, columns, ['land'], 'an Aksjonærregisteret extract')
          const width = header.length
          // A person's search key, computed for every row and kept nowhere: the register has
          // about as many distinct owners as half its rows, and a cell kept in a cache keeps the
          // whole chunk of text it was sliced from, so a cache by name grew with the file.
          const keyOf = (name: string) => {
            // The register writes a person's surname first.
            const words = nameWords(name)
            return `${words[0] ?? ''}|${[...words].sort().join(' ')}`
          }
          return (cells) => {
            // Surplus fields are the unquoted `;` of a foreign address: fold them back into it.
            const surplus = cells.length - width
            const sted = surplus > 0 ? cells.slice(at.sted, at.sted + surplus + 1).join(';') : cells[at.sted]
            const shift = (i: number) => (surplus > 0 && i > at.sted ? i + surplus : i)
            if (surplus < 0 && cells.length < Math.max(at.orgnr, at.antall, at.antallSelskap) + 1) {
              throw new DatasetRowError(`has ${cells.length} fields; the header has ${width}`)
            }
            const orgnr = blank(cells[at.orgnr])
            if (!/^\d{9}$/.test(orgnr)) throw new DatasetRowError(`Orgnr "${orgnr}" is not 9 digits`)
            const eier = blank(cells[shift(at.eier)])
            const eierId = blank(cells[shift(at.eierId)])
            const isPerson = /^\d{4}$/.test(eierId)
            const isCompany = /^\d{9}$/.test(eierId)
            const land = at.land < 0 ? '' : blank(cells[shift(at.land)]).toUpperCase()
            return {
              table: 'aksjeposter',
              row: {
                selskap_orgnr: orgnr,
                selskap: blank(cells[at.selskap]),
                aksjeklasse: blank(cells[at.klasse]),
                eier_navn: eier,
                eier_id: eierId,
                // As personOwnerKeys makes it.
                eier_nokkel: isPerson ? `${keyOf(eier)}|${Number(eierId)}` : isCompany ? eierId : null,
                postnr_sted: blank(sted) || null,
                landkode: land || null,
                antall_aksjer: wholeCount(cells[shift(at.antall)], 'Antall aksjer'),
                antall_aksjer_selskap: wholeCount(cells[shift(at.antallSelskap)], 'Antall aksjer selskap'),
              },
            }
          }
        },
      },
    },
  ],
})
