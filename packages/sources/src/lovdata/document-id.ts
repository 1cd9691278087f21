/** The kinds of documents the Lovdata public data holds: laws and central regulations. */
export type RuleKind = 'lov' | 'forskrift'

/** One Lovdata document id in every form it is written, parsed from what a user typed. */
export interface DocumentRef {
  /** Lovdata's document id: `NL/lov/2005-05-20-28`, `SF/forskrift/2017-06-19-840`. */
  documentId: string
  /** The refID without the base: `lov/2005-05-20-28`. */
  refId: string
  /** The legacy "datokode": `LOV-2005-05-20-28`, `FOR-2017-06-19-840`. */
  legacyId: string
  kind: RuleKind
  /** A section that came with the id (`lov/2005-05-20-28/§5a`), normalised; absent otherwise. */
  section?: string
}

/** The base each kind lives under in the consolidated public data. */
const BASE: Record<RuleKind, string> = { lov: 'NL', forskrift: 'SF' }
const LEGACY: Record<RuleKind, string> = { lov: 'LOV', forskrift: 'FOR' }

/**
 * `kind/date-number`, after an optional base (`NL/`, `SF/`) and before an optional section;
 * the number is absent on a few old laws (Grunnloven is `lov/1814-05-17`) and `-nn` marks a
 * nynorsk version (`NL/lov/1814-05-17-nn`).
 */
const SLASHED = /^(?:(nl|sf)\/)?(lov|forskrift)\/(\d{4})-(\d{2})-(\d{2})(?:-(\d+))?(-nn)?(?:\/(.+))?$/i
/** The legacy datokode: `LOV-2005-05-20-28`, `FOR-2017-06-19-840`, `lov-1814-05-17`. */
const LEGACY_FORM = /^(lov|for)-(\d{4})-(\d{2})-(\d{2})(?:-(\d+))?(-nn)?$/i

function validDate(year: string, month: string, day: string): boolean {
  const m = Number(month)
  const d = Number(day)
  return Number(year) >= 1000 && m >= 1 && m <= 12 && d >= 1 && d <= 31
}

function build(
  kind: RuleKind,
  year: string,
  month: string,
  day: string,
  number?: string,
  nynorsk?: string,
): DocumentRef {
  // Lovdata writes numbers without leading zeros (lov/2005-05-20-28, never -028).
  const tail = `${year}-${month}-${day}${number !== undefined ? `-${Number(number)}` : ''}${nynorsk ? '-nn' : ''}`
  return {
    documentId: `${BASE[kind]}/${kind}/${tail}`,
    refId: `${kind}/${tail}`,
    legacyId: `${LEGACY[kind]}-${tail}`,
    kind,
  }
}

/**
 * Reads a law or regulation id in the forms users type: Lovdata's document id
 * (`NL/lov/2005-05-20-28`), the refID (`lov/2005-05-20-28`), the legacy datokode
 * (`LOV-2005-05-20-28`), or a lovdata.no address (`https://lovdata.no/dokument/NL/lov/2005-05-20-28/§5a`).
 * Case and surrounding space do not matter. Returns undefined when it is none of these.
 *
 * @example
 * parseDocumentId('LOV-2005-05-20-28')?.documentId // 'NL/lov/2005-05-20-28'
 * parseDocumentId('forskrift/2017-06-19-840')?.documentId // 'SF/forskrift/2017-06-19-840'
 * parseDocumentId('lov/2005-05-20-28/§5a')?.section // '5a'
 */
export function parseDocumentId(input: string): DocumentRef | undefined {
  let text = input.trim()
  try {
    // Addresses copied from a browser arrive percent-encoded (§ as %C2%A7).
    if (/%[0-9a-f]{2}/i.test(text)) text = decodeURIComponent(text)
  } catch {
    return undefined
  }
  text = text.replace(/^https?:\/\/(?:www\.)?lovdata\.no\/(?:dokument\/|pro\/)?/i, '').replace(/\/+$/, '')
  const slashed = SLASHED.exec(text)
  if (slashed) {
    const [, base, kindText, year, month, day, number, nynorsk, rest] = slashed as unknown as string[]
    const kind = (kindText as string).toLowerCase() as RuleKind
    if (!validDate(year as string, month as string, day as string)) return undefined
    // A base that does not fit the kind (SF/lov/…) is a typo, not a document of the public data.
    if (base && base.toUpperCase() !== BASE[kind]) return undefined
    const ref = build(kind, year as string, month as string, day as string, number, nynorsk)
    if (rest !== undefined) {
      const section = normalizeSection(rest)
      if (section === undefined) return undefined
      ref.section = section
    }
    return ref
  }
  const legacy = LEGACY_FORM.exec(text)
  if (legacy) {
    const [, prefix, year, month, day, number, nynorsk] = legacy as unknown as string[]
    if (!validDate(year as string, month as string, day as string)) return undefined
    const kind: RuleKind = (prefix as string).toLowerCase() === 'lov' ? 'lov' : 'forskrift'
    return build(kind, year as string, month as string, day as string, number, nynorsk)
  }
  return undefined
}

/**
 * The section part of an input: `§ 5a`, `§5a`, `5a`, `§ 2 A-1`, `paragraf 13-5`, `§ 13-5 (2)`
 * never reach the same row unless written the same way, so they are written as Lovdata's
 * `data-name` writes them without the `§`: lower case, no spaces (`5a`, `2a-1`, `13-5`).
 * Returns undefined for text that is no section number.
 *
 * @example
 * normalizeSection('§ 5 a') // '5a'
 * normalizeSection('§§13-5') // '13-5'
 * normalizeSection('Artikkel 3') // 'artikkel3'
 */
export function normalizeSection(input: string): string | undefined {
  const text = input
    .trim()
    .toLowerCase()
    .replace(/^(?:§+|paragrafene|paragrafen|paragraf|par\.)\s*/u, '')
    .replace(/[–—]/g, '-')
    .replace(/\s*-\s*/g, '-')
    .replace(/\.$/, '')
    // A ledd written after the section (§ 13-5 (2)) still names the section.
    .replace(/\s*\(\d+\)$/, '')
    .replace(/\s+/g, '')
  // A section number starts with a digit or a word such as "artikkel" or "kapittel" and holds
  // letters, digits, hyphens and dots (§ 1-1 a, § 12 b, Art. 3, § 3.4).
  if (!/^[\p{L}\p{N}][\p{L}\p{N}.-]*$/u.test(text) || text.length > 40) return undefined
  return text
}

/**
 * The key a section is stored and looked up under, from Lovdata's `data-name` (`§13-5`,
 * `§2A-1`) or the `legalArticleValue` shown (`§ 13-5`): {@link normalizeSection} of either.
 *
 * @example
 * sectionKey('§13-5') === sectionKey('§ 13-5') // true, both '13-5'
 */
export function sectionKey(dataNameOrLabel: string): string {
  return normalizeSection(dataNameOrLabel) ?? dataNameOrLabel.trim().toLowerCase()
}
