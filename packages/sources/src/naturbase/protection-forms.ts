/**
 * The codes Naturbase writes in `verneform`, and the Norwegian words for them: the
 * `Kode_Verneform` coded-value domain Miljødirektoratet's map services publish with the layer
 * (as quoted in public code that reads it; the domain itself was not captured here). The codes
 * are spelt without æøå (`Landskapsvernomraade`, but `Dyrefredningsomrade`).
 */
export const PROTECTION_FORMS: Readonly<Record<string, string>> = {
  Biotopvern: 'biotopvern',
  BiotopvernSvalbard: 'biotopvern (Svalbardmiljøloven)',
  BiotopvernVilt: 'biotopvern etter viltloven',
  Dyrefredningsomrade: 'dyrefredningsområde',
  Dyrelivsfredning: 'dyrelivsfredning',
  GeotopvernSvalbard: 'geotopvern (Svalbardmiljøloven)',
  Landskapsvernomraade: 'landskapsvernområde',
  LandskapsvernomraadeBiotopvern: 'landskapsvernområde med biotopvern',
  LandskapsvernomraadeDyrelivsfredning: 'landskapsvernområde med dyrelivsfredning',
  LandskapsvernomraadePlanteOgDyrelivsfredning: 'landskapsvernområde med plante- og dyrelivsfredning',
  LandskapsvernomraadePlantelivsfredning: 'landskapsvernområde med plantelivsfredning',
  MarintVerneomraade: 'marint verneområde (naturmangfoldloven)',
  MarintVerneomraadeAnnet: 'marint verneområde (annet lovverk)',
  MidlertidigVernaOmraade: 'midlertidig verna område/objekt',
  Nasjonalpark: 'nasjonalpark',
  NasjonalparkSvalbard: 'nasjonalpark (Svalbardmiljøloven)',
  Naturminne: 'naturminne',
  Naturreservat: 'naturreservat',
  NaturreservatJanMayen: 'naturreservat (Jan Mayen)',
  NaturreservatSvalbard: 'naturreservat (Svalbardmiljøloven)',
  PlanteOgDyrefredningsomraade: 'plante- og dyrefredningsområde',
  PlanteOgDyrelivsfredning: 'plante- og dyrelivsfredning',
  Plantefredningsomraade: 'plantefredningsområde',
  Plantelivsfredning: 'plantelivsfredning',
}

/** A form's code or words reduced to compare: lower case, æøå and the register's spellings of them alike, no spaces or dashes. */
function formKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'o')
    .replace(/å/g, 'a')
    .replace(/aa/g, 'a')
    .replace(/[\s_\-()/.]/g, '')
}

/**
 * The codes a `verneform` filter asks for: every code whose code or words begin with what was
 * given, so `naturreservat` is also Svalbard's and Jan Mayen's reserves, `landskapsvernområde`
 * also the landscape areas with wildlife or plant protection, and `Naturreservat` (a code) works
 * as well. Empty when nothing matches.
 *
 * @example
 * protectionFormCodes('landskapsvernområde') // ['Landskapsvernomraade', 'LandskapsvernomraadeBiotopvern', …] (5 codes)
 * protectionFormCodes('nasjonalpark') // ['Nasjonalpark', 'NasjonalparkSvalbard']
 */
export function protectionFormCodes(asked: string): string[] {
  const key = formKey(asked)
  if (key === '') return []
  return Object.entries(PROTECTION_FORMS)
    .filter(([code, words]) => formKey(code).startsWith(key) || formKey(words).startsWith(key))
    .map(([code]) => code)
}

/**
 * The Norwegian words for a `verneform` code, or the code itself where it is not one the
 * register's list has (a new form is not renamed to the nearest known one).
 *
 * @example
 * protectionFormText('Landskapsvernomraade') // 'landskapsvernområde'
 */
export function protectionFormText(code: string): string {
  return PROTECTION_FORMS[code] ?? code
}

/** The IUCN protected area management categories, as IUCN names them. */
const IUCN_CATEGORIES: Readonly<Record<string, string>> = {
  Ia: 'Strict nature reserve',
  Ib: 'Wilderness area',
  II: 'National park',
  III: 'Natural monument or feature',
  IV: 'Habitat/species management area',
  V: 'Protected landscape/seascape',
  VI: 'Protected area with sustainable use of natural resources',
}

/**
 * The IUCN category of an area from what Naturbase writes (`IUCN_II`, `II`, `ia`), with IUCN's
 * name for it; null for an empty or unknown value, which is kept as written in `raw`.
 *
 * @example
 * iucnCategory('IUCN_Ia') // { category: 'Ia', text: 'Strict nature reserve' }
 */
export function iucnCategory(written: string | null | undefined): { category: string; text: string } | null {
  const bare = (written ?? '').trim().replace(/^IUCN[\s_-]*/i, '')
  const category = Object.keys(IUCN_CATEGORIES).find((c) => c.toLowerCase() === bare.toLowerCase())
  return category ? { category, text: IUCN_CATEGORIES[category]! } : null
}
