import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { defineOperation } from '@allmenning/core/source'
import { registerUpstream, type UdirRegister } from './udir-upstreams.js'
import { parseUnitDetail, withFlagAliases, type UnitDetail } from './unit-payloads.js'
import { udirEnheter, unitRecords } from './dataset-units.js'
import { loadedDataset } from './loaded-dataset.js'
import type { UnitRegister } from './unit-register.js'

const text = v.nullable(v.string())

const unitSchema = v.looseObject({
  organization_id: v.pipe(v.string(), v.description('Organisation number (9 digits)')),
  register: v.pipe(
    v.picklist(['nsr', 'nbr']),
    v.description('nsr: the school register; nbr: the kindergarten register'),
  ),
  kind: v.pipe(v.picklist(['school', 'kindergarten']), v.description('What the register is about')),
  Navn: v.pipe(v.string(), v.description('Name')),
  ErAktiv: v.pipe(v.boolean(), v.description('Whether the unit is in operation')),
  lat: v.pipe(
    v.nullable(v.number()),
    v.description('WGS84 latitude (Koordinat.Breddegrad); null when the record has no position'),
  ),
  lon: v.pipe(
    v.nullable(v.number()),
    v.description('WGS84 longitude (Koordinat.Lengdegrad); null when the record has no position'),
  ),
  Koordinat: v.pipe(
    v.nullable(
      v.object({
        Breddegrad: v.nullable(v.number()),
        Lengdegrad: v.nullable(v.number()),
        Zoom: v.nullable(v.number()),
        GeoKilde: text,
      }),
    ),
    v.description('The position as Udir gives it; null when the record has none (Udir sends (0, 0) for those)'),
  ),
  Beliggenhetsadresse: v.pipe(
    v.nullable(v.object({ Adresse: text, Postnr: text, Postnummer: text, Poststed: text })),
    v.description(
      'Where the unit is; Postnr and Postnummer both carry the post code (v4 writes Postnummer, clients read Postnr)',
    ),
  ),
})

/** What {@link createGetUnit} is built over. */
export interface GetUnitDeps {
  register: UnitRegister
}

const other = (r: UdirRegister): UdirRegister => (r === 'nsr' ? 'nbr' : 'nsr')

function toUnit(detail: UnitDetail, register: UdirRegister) {
  const record = withFlagAliases(
    Object.fromEntries(Object.entries(detail.record).filter(([, value]) => typeof value === 'boolean')) as Record<
      string,
      boolean
    >,
  )
  const p = detail.position
  const raw = detail.record.Beliggenhetsadresse as Record<string, unknown> | null | undefined
  return {
    ...detail.record,
    ...record,
    organization_id: detail.orgnr,
    register,
    kind: register === 'nsr' ? ('school' as const) : ('kindergarten' as const),
    Navn: detail.name,
    ErAktiv: detail.active,
    lat: p.lat,
    lon: p.lon,
    Koordinat: p.lat === null ? null : { Breddegrad: p.lat, Lengdegrad: p.lon, Zoom: p.zoom, GeoKilde: p.geoSource },
    Beliggenhetsadresse: p.address
      ? {
          ...(raw ?? {}),
          Adresse: p.address.Adresse,
          Postnr: p.address.Postnr,
          Postnummer: p.address.Postnr,
          Poststed: p.address.Poststed,
        }
      : null,
  }
}

/**
 * Builds `get_unit` over one source instance's register.
 *
 * @example
 * const getUnit = createGetUnit(deps)
 */
export function createGetUnit(deps: GetUnitDeps) {
  return defineOperation({
    description:
      "One school or kindergarten in full from Udir's registers, by organisation number: its record as Udir gives it " +
      '(ErAktiv, Koordinat{Breddegrad,Lengdegrad,Zoom,GeoKilde}, Beliggenhetsadresse{Adresse,Postnr,Poststed}, contact, ' +
      'pupils or children ...) with lat/lon as numbers. The school register is asked first, then the kindergarten register ' +
      '(or the one the unit was listed in, or the one named by register); 404 when neither has the number. With the ' +
      'udir_enheter dataset loaded, a school or kindergarten in operation is answered from it, with no call to Udir.',
    parameters: {
      organization_id: v.pipe(
        v.string(),
        v.transform((s) => s.replace(/[\s.]/g, '')),
        v.regex(/^\d{9}$/, 'must be an organisation number of 9 digits'),
        v.description(
          'Organisation number of the school or kindergarten (9 digits), as search_schools and search_kindergartens give it',
        ),
      ),
      register: v.optional(
        v.pipe(
          v.picklist(['nsr', 'nbr']),
          v.description('nsr (schools) or nbr (kindergartens): ask that register only'),
        ),
      ),
    },
    output: unitSchema,
    canonicalFieldAliases: { name: ['Navn'], latitude: ['lat'], longitude: ['lon'] },
    shapeNote:
      'data is the unit object clients of the public gateway read (ErAktiv, Koordinat, Beliggenhetsadresse), lat/lon added.',
    // A unit's record changes a few times a year.
    cacheTtlSeconds: 6 * 3600,

    datasets: [udirEnheter],

    async run(params, ctx) {
      const reader = loadedDataset(ctx)
      if (reader) {
        // A unit whose record the sync read is answered from the dataset; any other (closed, an owner) is asked for.
        const rows = (await unitRecords(reader, params.organization_id)).filter((row) => row.record !== null)
        const row =
          rows.find((r) => r.register === (params.register ?? 'nsr')) ?? (params.register ? undefined : rows[0])
        if (row)
          return {
            data: toUnit(parseUnitDetail(JSON.parse(row.record!), registerUpstream(row.register)), row.register),
          }
      }
      const first: UdirRegister = params.register ?? deps.register.listed(params.organization_id)?.register ?? 'nsr'
      const order = params.register ? [first] : [first, other(first)]
      for (const register of order) {
        const client = ctx.upstream(registerUpstream(register))
        const detail = await deps.register.detail(client, params.organization_id)
        if (detail) return { data: toUnit(detail, register), sourceApi: client.url(`/enhet/${params.organization_id}`) }
      }
      const where = params.register
        ? `Udir's ${params.register === 'nsr' ? 'school' : 'kindergarten'} register has`
        : "neither of Udir's registers (NSR, NBR) has"
      throw new GatewayError(
        404,
        'entity_not_found',
        `No unit with organisation number ${params.organization_id}: ${where} it`,
      )
    },
    entities: (data) => [{ type: data.kind, id: data.organization_id, name: data.Navn }],
  })
}
