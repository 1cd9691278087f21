import { foldNorwegian } from '@allmenning/core/source'
import type { FrostStation } from './station-list.js'

/**
 * A municipality as clients send it (`0301`, `301`, `Oslo`) matched against Frost's
 * `municipalityId` (301) or its name in capitals (`OSLO`).
 *
 * @example
 * inMunicipality('0301')(station) // true for a station in Oslo
 */
export function inMunicipality(municipality: string): (s: FrostStation) => boolean {
  const given = municipality.trim()
  if (/^\d{1,4}$/.test(given)) {
    const number = Number(given)
    return (s) => s.municipalityId === number
  }
  const name = foldNorwegian(given)
  return (s) => s.municipality !== null && foldNorwegian(s.municipality) === name
}

/**
 * A county as clients send it (`03`, `3`, `Oslo`, `Vestland`) matched against Frost's
 * `countyId` or its name in capitals.
 *
 * @example
 * inCounty('03')(station) // true for a station in Oslo
 */
export function inCounty(county: string): (s: FrostStation) => boolean {
  const given = county.trim()
  if (/^\d{1,2}$/.test(given)) {
    const number = Number(given)
    return (s) => s.countyId === number
  }
  const name = foldNorwegian(given)
  return (s) => s.county !== null && foldNorwegian(s.county) === name
}

/**
 * A station named by text: its id (`SN18700`, or `18700`), or a part of its name or short name,
 * matched without regard to case and accents.
 *
 * @example
 * namedLike('blindern')(station) // true for OSLO - BLINDERN
 */
export function namedLike(text: string): (s: FrostStation) => boolean {
  const given = foldNorwegian(text.trim())
  const id = /^(?:sn)?(\d+)$/.exec(given)
  return (s) =>
    (id !== null && s.id.toLowerCase() === `sn${id[1]}`) ||
    (s.name !== null && foldNorwegian(s.name).includes(given)) ||
    (s.shortName !== null && foldNorwegian(s.shortName).includes(given))
}
