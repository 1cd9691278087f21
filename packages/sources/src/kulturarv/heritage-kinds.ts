/**
 * Askeladden's categories (KulturminneKategori), the codes its `kategori` carries: E- for a
 * single monument (enkeltminne), L- for a locality. From the code list of Riksantikvaren's
 * product specification (as published for SOSI); `L-BVF` is also seen in a real WFS capture.
 */
export const HERITAGE_KINDS = {
  'E-ARK': 'Arkeologisk enkeltminne',
  'L-ARK': 'Arkeologisk lokalitet',
  'E-BYG': 'Bygning',
  'L-BVF': 'Bygningslokalitet',
  'E-HIH': 'Historisk hage',
  'E-KRK': 'Kirke',
  'L-KRK': 'Kirkested',
  'L-MAR': 'Kulturminne under vann - lokalitet',
  'E-MAR': 'Kulturminne under vann - enkeltminne',
  'E-TEK': 'Teknisk/industrielt enkeltminne',
  'L-TEK': 'Teknisk/industriell lokalitet',
  'E-AKM': 'Annet kulturminne',
  'L-AKM': 'Annen kulturminnelokalitet',
} as const

/** One of {@link HERITAGE_KINDS}' codes. */
export type HeritageKind = keyof typeof HERITAGE_KINDS

/** The codes, in the order of the code list. */
export const HERITAGE_KIND_CODES = Object.keys(HERITAGE_KINDS) as HeritageKind[]

/**
 * The name of a category code, or null for one the code list does not have.
 *
 * @example
 * heritageKindName('E-BYG') // 'Bygning'
 */
export function heritageKindName(code: string | null): string | null {
  return code !== null && code in HERITAGE_KINDS ? HERITAGE_KINDS[code as HeritageKind] : null
}
