import * as v from 'valibot'
import { checkUpstreamShape, UpstreamError, type UpstreamClient } from '@allmenning/core/source'
import { esriRingsToPolygons, type PolygonRings } from './area-geometry.js'

const text = v.optional(v.nullable(v.string()))

/** The attributes of a protected area this source reads; the layer has more, and may gain some. */
const attributesSchema = v.looseObject({
  naturvernId: v.string(),
  navn: text,
  offisieltNavn: text,
  verneform: text,
  kommune: text,
  iucn: text,
  // Esri JSON writes dates as milliseconds since 1970 (UTC).
  vernedato: v.optional(v.nullable(v.union([v.number(), v.string()]))),
  faktaark: text,
  verneforskrift: text,
  forvaltningsmyndighet: text,
  verneplan: text,
})

const featureSchema = v.looseObject({
  attributes: attributesSchema,
  // A feature without a shape comes with no geometry (or null); rings may carry z after x and y.
  geometry: v.optional(v.nullable(v.looseObject({ rings: v.array(v.array(v.array(v.number()))) }))),
})

const answerSchema = v.looseObject({
  spatialReference: v.optional(v.looseObject({ wkid: v.optional(v.number()), latestWkid: v.optional(v.number()) })),
  features: v.array(featureSchema),
  exceededTransferLimit: v.optional(v.boolean()),
})

const errorSchema = v.looseObject({
  error: v.looseObject({
    code: v.optional(v.number()),
    message: v.optional(v.string()),
    details: v.optional(v.array(v.unknown())),
  }),
})

/** The attributes of one protected area as the layer gives them. */
export type VernAttributes = v.InferOutput<typeof attributesSchema>

/** One protected area of an answer: its attributes and its polygons, grouped and in WGS84. */
export interface VernFeature {
  attributes: VernAttributes
  polygons: PolygonRings[]
}

/** A checked answer of the layer's query. */
export interface VernAnswer {
  features: VernFeature[]
  /** The service cut the answer at its page size: there were more areas than it sent. */
  exceededTransferLimit: boolean
}

/**
 * Reads an answer of the `vern` layer's query: an error body (which ArcGIS sends with HTTP 200)
 * becomes a 502 naming the upstream and the service's message; a body of another shape, or in
 * another spatial reference than the WGS84 asked for, too.
 *
 * @example
 * const query = vernQuery("naturvernId = 'VV00000972'", {})
 * const answer = readVernAnswer(client, (await client.getJson('/0/query', { query })).body)
 */
export function readVernAnswer(client: Pick<UpstreamClient, 'id' | 'name'>, body: unknown): VernAnswer {
  const failed = v.safeParse(errorSchema, body)
  if (failed.success) {
    const { code, message, details } = failed.output.error
    const more = (details ?? []).filter((d): d is string => typeof d === 'string' && d.trim() !== '').join('; ')
    throw new UpstreamError(
      client,
      'status',
      `answered an error in its body: ${code ?? 'no code'} ${message ?? 'without a message'}${more ? ` (${more})` : ''}`.slice(
        0,
        400,
      ),
      code,
    )
  }
  const answer = checkUpstreamShape(client, answerSchema, body, 'the protected areas')
  const wkid = answer.spatialReference?.latestWkid ?? answer.spatialReference?.wkid
  if (wkid !== undefined && wkid !== 4326) {
    throw new UpstreamError(
      client,
      'invalid_response',
      `answered in spatial reference ${wkid} where WGS84 (4326) was asked for`,
    )
  }
  return {
    features: answer.features.map((f) => ({
      attributes: f.attributes,
      polygons: f.geometry ? esriRingsToPolygons(f.geometry.rings) : [],
    })),
    exceededTransferLimit: answer.exceededTransferLimit === true,
  }
}

/**
 * A text for an ArcGIS `where` clause: quoted, single quotes doubled, as SQL wants.
 *
 * @example
 * sqlText("Kari's holme") // "'Kari''s holme'"
 */
export function sqlText(value: string): string {
  return `'${value.replace(/'/g, "''")}'`
}

/**
 * What every query of this source asks the layer: every field, geometry in WGS84 with six
 * decimals (about 10 cm), as Esri JSON; `extra` adds the spatial filter or generalisation.
 *
 * @example
 * vernQuery("naturvernId = 'VV00000972'", {}) // { where: …, outFields: '*', returnGeometry: 'true', outSR: 4326, geometryPrecision: 6, f: 'json' }
 */
export function vernQuery(where: string, extra: Record<string, string | number>): Record<string, string | number> {
  return {
    where,
    outFields: '*',
    returnGeometry: 'true',
    outSR: 4326,
    geometryPrecision: 6,
    ...extra,
    f: 'json',
  }
}
