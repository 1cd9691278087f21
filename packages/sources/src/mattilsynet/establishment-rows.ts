import * as v from 'valibot'
import type { DatasetReader } from '@allmenning/core/source'

/** An establishment as the `tilsynsobjekter` table holds it: its latest inspection. */
export interface EstablishmentRecord {
  tilsynsobjektid: string
  orgnummer: string | null
  navn: string
  adrlinje1: string | null
  adrlinje2: string | null
  postnr: string | null
  poststed: string | null
  adresse_key: string | null
  tilsynid: string
  dato: string
  karakter: number | null
  tilsynsbesoektype: number | null
  tema1: string | null
  karakter1: number | null
  tema2: string | null
  karakter2: number | null
  tema3: string | null
  karakter3: number | null
  tema4: string | null
  karakter4: number | null
}

/** A placed address as the `adressepunkter` table holds it. */
export interface AddressPoint {
  adresse_key: string
  status: string
  lat: number | null
  lon: number | null
  kommunenummer: string | null
  kommunenavn: string | null
}

interface InspectionRecord {
  tilsynid: string
  tilsynsobjektid: string
  dato: string
  karakter: number | null
  tilsynsbesoektype: number | null
}

/** Most earlier inspections listed per establishment; `tilsyn_antall` counts them all. */
export const HISTORY_PER_ESTABLISHMENT = 10

const grade = (description: string) => v.pipe(v.nullable(v.number()), v.description(description))

/** The row schema both operations answer with. */
export const establishmentSchema = v.object({
  establishment_id: v.pipe(v.string(), v.description("Mattilsynet's id of the establishment (tilsynsobjektid)")),
  navn: v.pipe(v.string(), v.description('Name of the establishment')),
  orgnummer: v.pipe(
    v.nullable(v.string()),
    v.description('Organisation number of the business running it, when Mattilsynet has one'),
  ),
  adresse: v.pipe(
    v.nullable(v.string()),
    v.description('Street address (adrlinje1, and adrlinje2 after a comma when there is one)'),
  ),
  postnr: v.nullable(v.string()),
  poststed: v.nullable(v.string()),
  dato: v.pipe(v.string(), v.description('Date of the latest inspection, YYYY-MM-DD')),
  karakter: grade('Total grade of the latest inspection: 0 and 1 a smiling face, 2 a straight mouth, 3 a sad face'),
  tilsynid: v.pipe(v.string(), v.description('Id of the latest inspection')),
  oppfolgingstilsyn: v.pipe(
    v.nullable(v.boolean()),
    v.description('Whether the latest inspection was a follow-up visit (tilsynsbesoektype 1)'),
  ),
  temaer: v.pipe(
    v.array(v.object({ tema: v.nullable(v.string()), karakter: grade('0–3; 4 not assessed, 5 not relevant') })),
    v.description(
      'Grades of the four themes of the latest inspection: routines and management, premises, food handling, labelling',
    ),
  ),
  tilsyn_antall: v.pipe(
    v.number(),
    v.description('Inspections of this establishment in the file, the latest included'),
  ),
  tidligere_tilsyn: v.pipe(
    v.array(v.object({ tilsynid: v.string(), dato: v.string(), karakter: v.nullable(v.number()) })),
    v.description(`Earlier inspections, newest first, at most ${HISTORY_PER_ESTABLISHMENT}`),
  ),
  lat: v.pipe(
    v.nullable(v.number()),
    v.description(
      "WGS84 latitude of the address, from Kartverket's address register; null when not placed (see plassering)",
    ),
  ),
  lon: v.pipe(v.nullable(v.number()), v.description('WGS84 longitude of the address; null when not placed')),
  kommunenummer: v.pipe(
    v.nullable(v.string()),
    v.description('Municipality of the address, from Kartverket, when placed'),
  ),
  plassering: v.pipe(
    v.picklist(['address', 'address_not_found', 'not_yet_geocoded', 'no_address']),
    v.description(
      "address: placed at its address by Kartverket's register; address_not_found: Kartverket has no such address; " +
        'not_yet_geocoded: the geocoding step has not reached this address yet; no_address: the file gives no street and postal code',
    ),
  ),
})

export type EstablishmentRow = v.InferOutput<typeof establishmentSchema>

/** Rows of `table` whose `column` is one of `values`, asked in slices so no statement has too many parameters. */
export async function selectIn<R>(
  reader: DatasetReader,
  table: string,
  column: string,
  values: string[],
  query: { columns?: readonly string[]; where?: Record<string, string> } = {},
): Promise<R[]> {
  const out: R[] = []
  for (let i = 0; i < values.length; i += 5000) {
    out.push(
      ...(await reader.select<R>(table, {
        ...query,
        where: { ...query.where, [column]: { in: values.slice(i, i + 5000) } },
      })),
    )
  }
  return out
}

/**
 * The answer's rows for a page of establishments: each with its earlier inspections (one
 * lookup for the page) and its address's point (one more), never a call per row.
 *
 * @example
 * import { adressepunkter } from '@allmenning/sources/mattilsynet'
 * const page = await reader.select<EstablishmentRecord>('tilsynsobjekter', { where: { postnr: '0153' }, limit: 100 })
 * const rows = await establishmentRows(reader, ctx.dataset(adressepunkter), page)
 */
export async function establishmentRows(
  smilefjes: DatasetReader,
  points: DatasetReader | undefined,
  page: EstablishmentRecord[],
  known?: Map<string, AddressPoint>,
): Promise<EstablishmentRow[]> {
  if (page.length === 0) return []
  const history = await selectIn<InspectionRecord>(
    smilefjes,
    'tilsyn',
    'tilsynsobjektid',
    [...new Set(page.map((e) => e.tilsynsobjektid))],
    {
      columns: ['tilsynid', 'tilsynsobjektid', 'dato', 'karakter', 'tilsynsbesoektype'],
    },
  )
  const byEstablishment = new Map<string, InspectionRecord[]>()
  for (const inspection of history) {
    const list = byEstablishment.get(inspection.tilsynsobjektid) ?? []
    list.push(inspection)
    byEstablishment.set(inspection.tilsynsobjektid, list)
  }
  const placed = new Map(known)
  const keys = [
    ...new Set(page.map((e) => e.adresse_key).filter((key): key is string => key !== null && !placed.has(key))),
  ]
  if (points && keys.length > 0) {
    for (const point of await selectIn<AddressPoint>(points, 'adressepunkter', 'adresse_key', keys, {
      columns: ['adresse_key', 'status', 'lat', 'lon', 'kommunenummer', 'kommunenavn'],
    })) {
      placed.set(point.adresse_key, point)
    }
  }
  return page.map((e) => {
    const earlier = (byEstablishment.get(e.tilsynsobjektid) ?? [])
      .filter((i) => i.tilsynid !== e.tilsynid)
      .sort((a, b) => (a.dato < b.dato ? 1 : a.dato > b.dato ? -1 : 0))
    const point = e.adresse_key ? placed.get(e.adresse_key) : undefined
    const at = point?.status === 'placed' && point.lat !== null && point.lon !== null
    return {
      establishment_id: e.tilsynsobjektid,
      navn: e.navn,
      orgnummer: e.orgnummer,
      adresse: e.adrlinje1 ? (e.adrlinje2 ? `${e.adrlinje1}, ${e.adrlinje2}` : e.adrlinje1) : e.adrlinje2,
      postnr: e.postnr,
      poststed: e.poststed,
      dato: e.dato,
      karakter: e.karakter,
      tilsynid: e.tilsynid,
      oppfolgingstilsyn: e.tilsynsbesoektype === null ? null : e.tilsynsbesoektype === 1,
      temaer: [1, 2, 3, 4].map((n) => ({ tema: e[`tema${n}` as 'tema1'], karakter: e[`karakter${n}` as 'karakter1'] })),
      tilsyn_antall: earlier.length + 1,
      tidligere_tilsyn: earlier
        .slice(0, HISTORY_PER_ESTABLISHMENT)
        .map((i) => ({ tilsynid: i.tilsynid, dato: i.dato, karakter: i.karakter })),
      lat: at ? point.lat : null,
      lon: at ? point.lon : null,
      kommunenummer: at ? point.kommunenummer : null,
      plassering:
        e.adresse_key === null
          ? 'no_address'
          : at
            ? 'address'
            : point?.status === 'not_found'
              ? 'address_not_found'
              : 'not_yet_geocoded',
    }
  })
}
