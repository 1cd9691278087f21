import * as v from 'valibot'
import type { DatasetReader, PageWindow } from '@allmenning/core/source'
import { nameKey, nameWords } from './datasets/name-key.js'

/** A row of the Aksjonærregisteret table, as the store returns it. */
export interface ShareholdingRow {
  selskap_orgnr: string
  selskap: string
  aksjeklasse: string
  eier_navn: string
  eier_id: string
  eier_nokkel: string | null
  postnr_sted: string | null
  landkode: string | null
  antall_aksjer: number
  antall_aksjer_selskap: number
}

/** What kind of owner a row names, read from its id: a birth year is a person, 9 digits a company. */
export function ownerOf(row: Pick<ShareholdingRow, 'eier_id'>): {
  type: 'person' | 'selskap' | 'ukjent'
  orgnr: string | null
  birthYear: number | null
} {
  // Not stored as columns of their own: three fewer values to write per row of a million-row import.
  if (/^\d{4}$/.test(row.eier_id)) return { type: 'person', orgnr: null, birthYear: Number(row.eier_id) }
  if (/^\d{9}$/.test(row.eier_id)) return { type: 'selskap', orgnr: row.eier_id, birthYear: null }
  return { type: 'ukjent', orgnr: null, birthYear: null }
}

/** The share of a class a holding is, in per cent with four decimals; `null` when the total is unknown. */
export function sharePercent(shares: number, total: number): number | null {
  return total > 0 ? Math.round((shares / total) * 1e6) / 1e4 : null
}

/** One shareholder of a company, as `aksjeeiere_for_selskap` lists them. */
export const shareholderSchema = v.object({
  navn: v.pipe(v.string(), v.description("The owner's name as the register writes it (persons usually surname first)")),
  type: v.pipe(
    v.picklist(['person', 'selskap', 'ukjent']),
    v.description('person, selskap (a company), or ukjent when the register gives no id'),
  ),
  organisasjonsnummer: v.pipe(
    v.nullable(v.string()),
    v.description("The owning company's organisation number; null for persons"),
  ),
  fodselsaar: v.pipe(
    v.nullable(v.number()),
    v.description("A person's birth year (the register publishes no more); null for companies"),
  ),
  postnr_sted: v.pipe(v.nullable(v.string()), v.description('Postcode and place, or a foreign address, as registered')),
  landkode: v.pipe(
    v.nullable(v.string()),
    v.description('Country code of the owner (ISO 3166 alpha-2, as registered)'),
  ),
  aksjeklasse: v.string(),
  antall_aksjer: v.pipe(v.number(), v.description('Shares held at the end of the year, duplicate rows summed')),
  andel_prosent: v.pipe(v.nullable(v.number()), v.description('The holding as a share of the class, in per cent')),
})

/** One holding of a company or person in another company. */
export const holdingSchema = v.object({
  organisasjonsnummer: v.pipe(v.string(), v.description('The company whose shares are held')),
  selskap: v.string(),
  aksjeklasse: v.string(),
  antall_aksjer: v.number(),
  antall_aksjer_selskap: v.pipe(v.number(), v.description("The company's shares in that class")),
  andel_prosent: v.nullable(v.number()),
})

export function toShareholder(row: ShareholdingRow): v.InferOutput<typeof shareholderSchema> {
  const owner = ownerOf(row)
  return {
    navn: row.eier_navn,
    type: owner.type,
    organisasjonsnummer: owner.orgnr,
    fodselsaar: owner.birthYear,
    postnr_sted: row.postnr_sted,
    landkode: row.landkode,
    aksjeklasse: row.aksjeklasse,
    antall_aksjer: row.antall_aksjer,
    andel_prosent: sharePercent(row.antall_aksjer, row.antall_aksjer_selskap),
  }
}

export function toHolding(row: ShareholdingRow): v.InferOutput<typeof holdingSchema> {
  return {
    organisasjonsnummer: row.selskap_orgnr,
    selskap: row.selskap,
    aksjeklasse: row.aksjeklasse,
    antall_aksjer: row.antall_aksjer,
    antall_aksjer_selskap: row.antall_aksjer_selskap,
    andel_prosent: sharePercent(row.antall_aksjer, row.antall_aksjer_selskap),
  }
}

/**
 * The keys a person who owns shares may be stored under: the register writes the surname
 * first, and a user's name may have it anywhere, so one key per word of the name that could
 * be the surname (see `personSearchKey`), each with the birth year. Together they find the
 * person by every word of the full name, as before, in one indexed lookup.
 *
 * @example
 * personOwnerKeys('Ola Nordmann', 1975) // ['ola|nordmann ola|1975', 'nordmann|nordmann ola|1975']
 */
export function personOwnerKeys(name: string, birthYear: number): string[] {
  const key = nameKey(name)
  return [...new Set(nameWords(name))].map((surname) => `${surname}|${key}|${birthYear}`)
}

/**
 * The holdings of one owner (`eier_nokkel`: an organisation number, or a person's keys), largest
 * first, one page of them, and how many there are in all.
 *
 * @example
 * const { total, rows } = await holdingsOf(ctx.dataset(aksjonaerregisteret), '976030788', { limit: 25, offset: 0 })
 */
export async function holdingsOf(
  register: DatasetReader,
  owner: string | string[],
  window: PageWindow,
): Promise<{ total: number; rows: ShareholdingRow[] }> {
  const where = { eier_nokkel: typeof owner === 'string' ? owner : { in: owner } }
  const [total, rows] = await Promise.all([
    register.count('aksjeposter', where),
    register.select<ShareholdingRow>('aksjeposter', {
      where,
      orderBy: [{ column: 'antall_aksjer', direction: 'desc' }, { column: 'selskap_orgnr' }, { column: 'aksjeklasse' }],
      limit: window.limit,
      offset: window.offset,
    }),
  ])
  return { total, rows }
}
