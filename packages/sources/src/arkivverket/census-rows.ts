import * as v from 'valibot'
import {
  censusPersonPayload,
  censusPropertyPayload,
  type CensusPersonPayload,
  type CensusPropertyPayload,
} from './census-payload.js'

const nullableText = (description: string) => v.pipe(v.nullable(v.string()), v.description(description))

/** A resident of a dwelling place, as the census wrote them (codes and spelling kept). */
export const residentSchema = v.object({
  person_id: nullableText("The census's person id (pf…), as Digitalarkivet numbers its person records"),
  name: v.pipe(v.string(), v.description('First name, patronymic and surname as written in the census')),
  kjonn: nullableText('Sex as the census codes it: m (mann) or k (kvinne)'),
  familiestilling: nullableText(
    'Position in the household as the census codes it, e.g. hf (husfar), hm (husmor), s (sønn), d (datter)',
  ),
  sivilstand: nullableText('Marital status as the census codes it, e.g. g (gift), ug (ugift), e (enke/enkemann)'),
  yrke: nullableText('Occupation as written in the census'),
  fodselsaar: nullableText('Date of birth (YYYY-MM-DD) or year, as the census gives it'),
  fodested: nullableText('Place of birth as written in the census'),
})

/** One dwelling place of the 1910 census, in the public gateway's row shape. */
export const censusPropertySchema = v.object({
  property_id: v.pipe(
    v.string(),
    v.description(
      "Digitalarkivet's id of the dwelling place (its efid: bf… for a farm or holding, gf… for a town address)",
    ),
  ),
  gaardsnavn_gateadr: nullableText('Farm name (gårdsnavn) or street address (gateadresse) as written in the census'),
  gaardsnr: nullableText('Farm number (gårdsnummer) as text, as the census gives it; null in towns'),
  bruksnr: nullableText('Holding number (bruksnummer) as text; null where there is none'),
  bruksnavn: nullableText('Name of the holding (bruksnavn)'),
  fylke: nullableText('County (fylke) in 1910'),
  kommune_sokn: nullableText('Municipality or parish (kommune/sokn) in 1910, e.g. Kristiania, Aker'),
  source: nullableText('The census list it is recorded in, e.g. "Folketelling 1910 for 0301 Kristiania kjøpstad"'),
  coordinates: v.pipe(
    v.nullable(v.object({ lat: v.number(), lon: v.number() })),
    v.description('WGS84 position Arkivverket mapped the place to; null for the places it has not mapped'),
  ),
  residents: v.pipe(
    v.nullable(v.array(residentSchema)),
    v.description('The people counted there, in census order; null when include_residents=false'),
  ),
})

export type CensusProperty = v.InferOutput<typeof censusPropertySchema>
export type Resident = v.InferOutput<typeof residentSchema>

/** Text of a field the API may send as a string or a number; null when empty or absent. */
export function textOf(value: string | number | null | undefined): string | null {
  if (value === null || value === undefined) return null
  const text = String(value).trim()
  return text === '' ? null : text
}

/** A number the API may send as text (with a decimal comma in some exports); null when absent or unreadable. */
export function numberOf(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  const text = value.trim().replace(',', '.')
  if (!/^-?\d+(\.\d+)?$/.test(text)) return null
  return Number(text)
}

/** The position of a record, from `coordinates{lat,lon}` or the older `latitude`/`longitude`; null when there is none. */
function positionOf(p: CensusPropertyPayload): CensusProperty['coordinates'] {
  const lat = numberOf(p.coordinates?.lat ?? p.latitude)
  const lon = numberOf(p.coordinates?.lon ?? p.longitude)
  if (lat === null || lon === null) return null
  // (0, 0) and values off the globe are placeholders, not places.
  if ((lat === 0 && lon === 0) || Math.abs(lat) > 90 || Math.abs(lon) > 180) return null
  return { lat, lon }
}

/**
 * A resident row from a census person record.
 *
 * @example
 * toResident({ id: 'pf01', fornavn: 'Hermund I.', slektsnavn: 'Thue', kjonn: 'm' }).name // 'Hermund I. Thue'
 */
export function toResident(person: CensusPersonPayload): Resident {
  return {
    person_id: textOf(person.id),
    name: [person.fornavn, person.patronymikon, person.slektsnavn]
      .map(textOf)
      .filter((part) => part !== null)
      .join(' '),
    kjonn: textOf(person.kjonn),
    familiestilling: textOf(person.familiestilling),
    sivilstand: textOf(person.sivilstand),
    yrke: textOf(person.yrke),
    fodselsaar: textOf(person.fodselsaar),
    fodested: textOf(person.fodested),
  }
}

/** Residents from a list the API sent, each checked on its own: a record that is not a person is left out. */
export function residentsOf(persons: readonly unknown[]): Resident[] {
  return persons.flatMap((person) => {
    const parsed = v.safeParse(censusPersonPayload, person)
    return parsed.success ? [toResident(parsed.output)] : []
  })
}

/**
 * The public gateway's row of one census record, or null when the record has no id to link it
 * by (it is then counted, not answered). `residents` is null unless asked for.
 *
 * @example
 * toCensusProperty({ efid: 'bf01036717000017', gaardsnavn_gateadr: 'Nygaard', coordinates: { lat: 61.17, lon: 6.54 } }, false)
 * // { property_id: 'bf01036717000017', gaardsnavn_gateadr: 'Nygaard', coordinates: { lat: 61.17, lon: 6.54 }, residents: null, … }
 */
export function toCensusProperty(record: unknown, withResidents: boolean): CensusProperty | null {
  const parsed = v.safeParse(censusPropertyPayload, record)
  if (!parsed.success) return null
  const p = parsed.output
  const id = textOf(p.efid) ?? textOf(p.autoid)
  if (id === null) return null
  return {
    property_id: id,
    gaardsnavn_gateadr: textOf(p.gaardsnavn_gateadr),
    gaardsnr: textOf(p.gaardsnr),
    bruksnr: textOf(p.bruksnr),
    bruksnavn: textOf(p.bruksnavn),
    fylke: textOf(p.fylke),
    kommune_sokn: textOf(p.kommune_sokn),
    source: textOf(p.tittel) ?? textOf(p.kildenavn) ?? textOf(p.tittel_en),
    coordinates: positionOf(p),
    residents: withResidents ? residentsOf(p.persons ?? []) : null,
  }
}
