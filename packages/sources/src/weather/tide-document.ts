import * as v from 'valibot'
import { checkUpstreamShape, UpstreamError, type UpstreamClient } from '@allmenning/core/source'

/** One value of a series: the instant in ms, and the level in cm. */
export interface TideValue {
  time: number
  cm: number
  /** Kartverket's flag: `obs`, `pre`, `high`, `low`, ... */
  flag: string | undefined
}

/** The location Kartverket answered for: the tidal zone of the point, and its reference gauge. */
export interface TideLocation {
  name: string | null
  code: string | null
  /** The permanent gauge the zone's values are derived from. */
  obscode: string | null
  /** Minutes the zone's tide lags the gauge's. */
  delay: number | null
  /** How much the gauge's tide is scaled for the zone. */
  factor: number | null
}

/** A `locationdata` answer: the series by `type` (`prediction`, `observation`, `weathereffect`, `forecast`). */
export interface TideDocument {
  location: TideLocation
  /** The datum the levels are relative to, as Kartverket names it (`CD`, `MSL`, `NN2000`). */
  referenceLevel: string
  series: Map<string, TideValue[]>
}

/** Kartverket's answer for a point it has no sea level for, with its reason. */
export interface NoTideData {
  noData: string
}

const text = v.union([v.string(), v.looseObject({ '#text': v.optional(v.string()) })])
const textOf = (value: v.InferOutput<typeof text> | undefined) =>
  (typeof value === 'string' ? value : value?.['#text'])?.trim() ?? ''

const waterlevel = v.looseObject({ value: v.string(), time: v.string(), flag: v.optional(v.string()) })
const locationData = v.looseObject({
  nodata: v.optional(v.looseObject({ info: v.optional(v.string()) })),
  error: v.optional(v.array(text)),
  location: v.optional(
    v.array(
      v.looseObject({
        name: v.optional(v.string()),
        code: v.optional(v.string()),
        obscode: v.optional(v.string()),
        delay: v.optional(v.string()),
        factor: v.optional(v.string()),
      }),
    ),
  ),
  reflevelcode: v.optional(v.string()),
  data: v.optional(
    v.array(
      v.union([
        v.looseObject({
          type: v.string(),
          unit: v.optional(v.string()),
          reflevelcode: v.optional(v.string()),
          waterlevel: v.optional(v.array(waterlevel)),
        }),
        // An empty `<data/>` parses as a string.
        v.string(),
      ]),
    ),
  ),
})
const tideDocument = v.looseObject({
  tide: v.looseObject({
    error: v.optional(v.array(text)),
    locationdata: v.optional(v.union([locationData, v.string()])),
  }),
})

const numberOrNull = (value: string | undefined) => {
  const n = value === undefined || value.trim() === '' ? Number.NaN : Number(value)
  return Number.isFinite(n) ? n : null
}

/**
 * Reads Kartverket's XML answer to `tide_request=locationdata`. Kartverket answers every
 * outcome with HTTP 200: a point it has no sea level for (inland, abroad, the stretch between
 * Lista and Hellvik) is a `<nodata info="…"/>`, read as {@link NoTideData} with its reason, and
 * so is an `<error>` that says the position is outside its area; any other `<error>`, a body
 * that is not its XML, or a level that is not a number in cm is a 502 naming Kartverket.
 *
 * @example
 * const doc = await readTideDocument(client, xml)
 * if ('series' in doc) doc.series.get('prediction') // [{ time: 1764028800000, cm: 64.3, flag: 'pre' }, ...]
 */
export async function readTideDocument(client: UpstreamClient, body: string): Promise<TideDocument | NoTideData> {
  const { parseTideXml } = await import('./parse-tide-xml.js')
  const tree = parseTideXml(body.replace(/^\uFEFF/, '').trimStart())
  if (tree === undefined)
    throw new UpstreamError(client, 'invalid_response', 'answered a body that is not well-formed XML')
  const doc = checkUpstreamShape(client, tideDocument, tree, 'its water-level XML').tide
  const errors = [
    ...(doc.error ?? []),
    ...(typeof doc.locationdata === 'object' ? (doc.locationdata.error ?? []) : []),
  ].map(textOf)
  if (errors.some((message) => /outside/i.test(message))) return { noData: errors.join('; ') }
  if (errors.length > 0)
    throw new UpstreamError(client, 'invalid_response', `answered an error: ${errors.join('; ').slice(0, 200)}`)
  const data = doc.locationdata
  if (typeof data !== 'object')
    throw new UpstreamError(client, 'invalid_response', 'answered without any location data')
  if (data.nodata) return { noData: data.nodata.info?.trim() || 'no sea level data for this area' }
  const series = new Map<string, TideValue[]>()
  let blockLevel: string | undefined
  for (const block of data.data ?? []) {
    if (typeof block === 'string') continue
    if (block.unit !== undefined && block.unit !== 'cm')
      throw new UpstreamError(client, 'invalid_response', `answered levels in "${block.unit}" where cm were expected`)
    blockLevel ??= block.reflevelcode
    const values: TideValue[] = []
    for (const level of block.waterlevel ?? []) {
      const time = Date.parse(level.time)
      const cm = numberOrNull(level.value)
      if (Number.isNaN(time) || cm === null)
        throw new UpstreamError(
          client,
          'invalid_response',
          `answered an unreadable ${block.type} value (${level.value} at ${level.time})`.slice(0, 200),
        )
      values.push({ time, cm, flag: level.flag })
    }
    series.set(block.type, [...(series.get(block.type) ?? []), ...values])
  }
  const referenceLevel = (data.reflevelcode ?? blockLevel)?.trim().toUpperCase()
  if (!referenceLevel)
    throw new UpstreamError(client, 'invalid_response', 'answered levels without saying their reference level')
  const location = data.location?.[0]
  return {
    location: {
      name: location?.name ?? null,
      code: location?.code ?? null,
      obscode: location?.obscode ?? null,
      delay: numberOrNull(location?.delay),
      factor: numberOrNull(location?.factor),
    },
    referenceLevel,
    series,
  }
}

/** `YYYY-MM-DDTHH:MM` in UTC, as `fromtime` and `totime` take it with `tzone=0`. */
export const kartverketTime = (ms: number) => new Date(ms).toISOString().slice(0, 16)

/** An instant as the tide operations answer it: ISO 8601 UTC to the second. */
export const isoSecond = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

/** The `locationdata` query for a point and window; `tzone=0` because Kartverket's default is UTC+1. */
export function locationQuery(
  point: { lat: number; lon: number },
  datum: string,
  from: number,
  to: number,
  datatype: 'all' | 'tab',
) {
  return {
    tide_request: 'locationdata',
    lat: point.lat,
    lon: point.lon,
    fromtime: kartverketTime(from),
    totime: kartverketTime(to),
    datatype,
    refcode: datum,
    place: '',
    file: '',
    lang: 'en',
    interval: 60,
    dst: 0,
    tzone: 0,
  }
}

/** The path of Kartverket's water-level API under its base URL. */
export const TIDE_API_PATH = '/tideapi.php'
