import * as v from 'valibot'
import { checkUpstreamShape } from '@allmenning/core/source'
import type { UdirRegister } from './udir-upstreams.js'

const text = v.nullish(v.string())
const flag = v.nullish(v.boolean())
// Numbers in every capture seen; text (with a decimal comma) is read too, should a serializer change.
const decimal = v.nullish(
  v.union([
    v.number(),
    v.pipe(
      v.string(),
      v.transform((s) => (s.trim() === '' ? null : Number(s.trim().replace(',', '.')))),
    ),
  ]),
)
const numberish = v.nullish(
  v.union([
    v.number(),
    v.pipe(
      v.string(),
      v.transform((s) => (/^\d+$/.test(s.trim()) ? Number(s) : null)),
    ),
  ]),
)

/** One unit of an area's list (v4 `EnhetListe` items; `Orgnr`/`Kommunenr` as older versions spell them are read too). */
const listItem = v.looseObject({
  Organisasjonsnummer: text,
  Orgnr: text,
  OrgNr: text,
  Navn: text,
  FulltNavn: text,
  Kommunenummer: text,
  Kommunenr: text,
  Fylkesnummer: text,
  Fylkesnr: text,
  ErAktiv: flag,
  DatoEndret: text,
})

/** v4 wraps a list in a page; a bare array (as v3 answers) is read too. */
const listPayload = v.union([
  v.array(listItem),
  v.looseObject({
    EnhetListe: v.nullish(v.array(listItem)),
    Sidenummer: numberish,
    AntallSider: numberish,
    TotaltAntallEnheter: numberish,
  }),
])

const address = v.nullish(v.looseObject({ Adresse: text, Postnummer: text, Postnr: text, Poststed: text, Land: text }))

/** One unit in full (`/enhet/{orgnr}`), as much as this source reads; the rest is passed on as it is. */
const detailPayload = v.looseObject({
  Organisasjonsnummer: text,
  Orgnr: text,
  Navn: text,
  FulltNavn: text,
  ErAktiv: flag,
  DatoEndret: text,
  Kommune: v.nullish(v.looseObject({ Kommunenummer: text, Kommunenr: text, Navn: text })),
  Fylke: v.nullish(v.looseObject({ Fylkesnummer: text, Fylkesnr: text, Navn: text })),
  Beliggenhetsadresse: address,
  Postadresse: address,
  Koordinat: v.nullish(v.looseObject({ Breddegrad: decimal, Lengdegrad: decimal, Zoom: numberish, GeoKilde: text })),
})

/** The flags of a unit, keyed as the register sends them (`ErAktiv`, `ErGrunnskole`, ...). */
export type UnitFlags = Record<string, boolean>

/** One unit of an area's list, read. */
export interface ListedUnit {
  register: UdirRegister
  orgnr: string
  name: string
  fullName: string | null
  municipalityNumber: string | null
  countyNumber: string | null
  active: boolean
  /** Every `Er…` flag of the row that is a boolean. */
  flags: UnitFlags
  /** `DatoEndret`: when the register last changed the unit. */
  changedAt: string | null
}

/** One page of an area's list. */
export interface UnitListPage {
  units: ListedUnit[]
  page: number
  pageCount: number
  total: number | undefined
  /** Rows without an organisation number, left out. */
  withoutId: number
}

const clean = (s: string | null | undefined) => (s && s.trim() !== '' ? s.trim() : null)

function flagsOf(row: Record<string, unknown>): UnitFlags {
  const flags: UnitFlags = {}
  for (const [key, value] of Object.entries(row))
    if (/^Er[A-Z]/.test(key) && typeof value === 'boolean') flags[key] = value
  return flags
}

/**
 * Reads one answer of `/enheter/kommune/{nr}` or `/enheter/fylke/{nr}`: a 502 naming the
 * register when it is neither a v4 page nor a bare list.
 *
 * @example
 * parseUnitList(response.body, client, 'nsr').units[0]?.orgnr // '974590328'
 */
export function parseUnitList(
  body: unknown,
  upstream: { id: string; name: string },
  register: UdirRegister,
): UnitListPage {
  const payload = checkUpstreamShape(upstream, listPayload, body, 'the list of units')
  const rows = Array.isArray(payload) ? payload : (payload.EnhetListe ?? [])
  let withoutId = 0
  const units: ListedUnit[] = []
  for (const row of rows) {
    const orgnr = clean(row.Organisasjonsnummer ?? row.Orgnr ?? row.OrgNr)
    if (!orgnr) {
      withoutId++
      continue
    }
    units.push({
      register,
      orgnr,
      name: clean(row.Navn) ?? clean(row.FulltNavn) ?? orgnr,
      fullName: clean(row.FulltNavn),
      municipalityNumber: clean(row.Kommunenummer ?? row.Kommunenr),
      countyNumber: clean(row.Fylkesnummer ?? row.Fylkesnr),
      active: row.ErAktiv === true,
      flags: flagsOf(row),
      changedAt: clean(row.DatoEndret),
    })
  }
  if (Array.isArray(payload)) return { units, page: 1, pageCount: 1, total: units.length, withoutId }
  return {
    units,
    page: payload.Sidenummer ?? 1,
    pageCount: payload.AntallSider ?? 1,
    total: payload.TotaltAntallEnheter ?? undefined,
    withoutId,
  }
}

/** Where a unit is, from its own record. */
export interface UnitPosition {
  lat: number | null
  lon: number | null
  zoom: number | null
  geoSource: string | null
  /** Street address, post code and town of the unit's location (`Beliggenhetsadresse`). */
  address: { Adresse: string | null; Postnr: string | null; Poststed: string | null } | null
  /** `DatoEndret` of the record the position was read from. */
  changedAt: string | null
}

/** One unit in full, read. */
export interface UnitDetail {
  orgnr: string
  name: string
  active: boolean
  position: UnitPosition
  /** The record as the register sent it, for the fields this source does not read itself. */
  record: Record<string, unknown>
}

const inRange = (lat: number, lon: number) =>
  Number.isFinite(lat) &&
  Number.isFinite(lon) &&
  Math.abs(lat) <= 90 &&
  Math.abs(lon) <= 180 &&
  !(lat === 0 && lon === 0)

/**
 * Reads `/enhet/{orgnr}`. A unit without geocoding comes with `Koordinat` at (0, 0)
 * (`GeoKilde` "Undefined", as one 2026 client notes): read as no position.
 *
 * @example
 * parseUnitDetail(response.body, client).position.lat // 59.92
 */
export function parseUnitDetail(body: unknown, upstream: { id: string; name: string }): UnitDetail {
  const record = checkUpstreamShape(upstream, detailPayload, body, 'the unit')
  const orgnr = clean(record.Organisasjonsnummer ?? record.Orgnr) ?? ''
  const k = record.Koordinat
  const lat = k?.Breddegrad ?? null
  const lon = k?.Lengdegrad ?? null
  const placed = lat !== null && lon !== null && inRange(lat, lon)
  const where = record.Beliggenhetsadresse
  return {
    orgnr,
    name: clean(record.Navn) ?? clean(record.FulltNavn) ?? orgnr,
    active: record.ErAktiv === true,
    position: {
      lat: placed ? lat : null,
      lon: placed ? lon : null,
      zoom: k?.Zoom ?? null,
      geoSource: clean(k?.GeoKilde),
      address: where
        ? {
            Adresse: clean(where.Adresse),
            Postnr: clean(where.Postnummer ?? where.Postnr),
            Poststed: clean(where.Poststed),
          }
        : null,
      changedAt: clean(record.DatoEndret),
    },
    record: body as Record<string, unknown>,
  }
}

/**
 * A unit's flags with the spellings clients read filled in: v4 writes `ErGrunnskole` and
 * `ErPrivatskole`, the first API (and clients written for it) `ErGrunnSkole` and
 * `ErPrivatSkole`; each spelling is given the other's value when only one was sent.
 *
 * @example
 * withFlagAliases({ ErGrunnskole: true }) // { ErGrunnskole: true, ErGrunnSkole: true }
 */
export function withFlagAliases(flags: UnitFlags): UnitFlags {
  const out = { ...flags }
  const pairs: [string, string][] = [
    ['ErGrunnskole', 'ErGrunnSkole'],
    ['ErPrivatskole', 'ErPrivatSkole'],
    ['ErOffentligSkole', 'ErOffentligskole'],
  ]
  for (const [a, b] of pairs) {
    if (out[a] === undefined && out[b] !== undefined) out[a] = out[b]!
    if (out[b] === undefined && out[a] !== undefined) out[b] = out[a]!
  }
  return out
}
