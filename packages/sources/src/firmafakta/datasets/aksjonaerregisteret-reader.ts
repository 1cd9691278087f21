import { DatasetRowError, type DatasetContent } from '@allmenning/core/source'
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
 * How Aksjonærregisteret's extract is read. The file is `;`-separated without quoting: a `"`
 * is an ordinary character (names such as `"NORRSKEN MUTUAL HOLDING LTD (PUBL`), and foreign
 * addresses hold unquoted `;`, so a record with more fields than the header has the surplus
 * folded back into `Postnr/sted`. Counts may carry no-break-space thousands separators;
 * duplicate rows per company, class and owner are summed. UTF-8 with a byte-order mark or
 * windows-1252.
 */
export const aksjonaerregisteretContent: DatasetContent = {
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
}
