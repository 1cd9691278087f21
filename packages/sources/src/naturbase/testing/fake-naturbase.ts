import { fakeReply, startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'
import { boundsOf } from '../area-geometry.js'
import { vernFields, vernFixtures, type VernFixture } from './vern-fixtures.js'

/** The path of the `vern` layer's query the fake serves, below the MapServer's base URL. */
export const vernQueryPath = '/0/query'

/** What {@link startFakeNaturbase} plays. */
export interface FakeNaturbaseOptions {
  /** The layer's page size (its maxRecordCount; not seen for this layer, 1000 is ArcGIS Server's default). */
  maxRecordCount?: number
  /**
   * For the offline demo: an id the fixtures lack (any two letters and eight digits) is answered
   * with Østensjøvannet's record under that id, as the real register would answer a real id.
   */
  anyId?: boolean
  /** Features instead of the recorded ones. */
  features?: VernFixture[]
}

/**
 * ArcGIS Server answers a request it cannot carry out with HTTP 200 and this body (the shape
 * seen from other ArcGIS servers; not captured from Miljødirektoratet's).
 *
 * @example
 * fake.failWith(arcgisError(400, 'Unable to complete operation.', ['Unable to perform query operation.']))
 */
export const arcgisError = (code: number, message: string, details: string[]): FakeReply =>
  reply({ error: { code, message, details } })

/** ArcGIS Server's JSON (`application/json;charset=UTF-8` as its Java stack writes it; not captured from this host), compact. */
function reply(value: unknown): FakeReply {
  return fakeReply.json(JSON.stringify(value), { contentType: 'application/json;charset=UTF-8' })
}

type Where = (attributes: VernFixture['attributes']) => boolean

/** The `where` clauses this source sends, and `1=1`; anything else is an error, as a bad clause is on the real service. */
function parseWhere(where: string): Where | undefined {
  const text = where.trim()
  if (text === '1=1') return () => true
  const within = /^verneform IN \(((?:'[^']*',?)+)\)$/.exec(text)
  if (within) {
    const forms = within[1]!.split(',').map((s) => s.replace(/^'|'$/g, ''))
    return (a) => forms.includes(String(a.verneform))
  }
  const one = /^naturvernId = '([^']*)'$/.exec(text)
  if (one) return (a) => a.naturvernId === one[1]
  const like = /^UPPER\(navn\) LIKE '%((?:[^']|'')*)%' OR UPPER\(offisieltNavn\) LIKE '%((?:[^']|'')*)%'$/.exec(text)
  if (like && like[1] === like[2]) {
    const part = like[1]!.replace(/''/g, "'")
    return (a) =>
      String(a.navn ?? '')
        .toUpperCase()
        .includes(part) ||
      String(a.offisieltNavn ?? '')
        .toUpperCase()
        .includes(part)
  }
  return undefined
}

function boxOf(rings: number[][][]): [number, number, number, number] {
  return boundsOf(rings.flat().map((p) => [p[0]!, p[1]!] as [number, number]))
}

/**
 * The layer's query as the fake plays it: `where` (the clauses above), an envelope in WGS84
 * (`geometryType=esriGeometryEnvelope&inSR=4326`, matched by the areas' boxes, where the real
 * service tests the outline itself), `outSR=4326` only (the layer's own projection is not
 * played), `f=json` only, and the page size with `exceededTransferLimit`. `maxAllowableOffset`
 * is accepted and not applied: the fixtures' outlines are coarse already.
 */
export function answerVernQuery(query: URLSearchParams, options: FakeNaturbaseOptions = {}): FakeReply {
  const features = options.features ?? vernFixtures
  if (query.get('f') !== 'json')
    return arcgisError(400, 'Unable to complete operation.', ['The fake plays f=json only.'])
  if (query.get('outSR') !== '4326')
    return arcgisError(400, 'Unable to complete operation.', ['The fake answers only outSR=4326.'])
  const where = parseWhere(query.get('where') ?? '')
  if (!where) return arcgisError(400, 'Unable to complete operation.', ['Unable to perform query operation.'])
  let matching = features.filter((f) => where(f.attributes))
  const geometry = query.get('geometry')
  if (geometry !== null) {
    const box = geometry.split(',').map(Number)
    if (
      query.get('geometryType') !== 'esriGeometryEnvelope' ||
      query.get('inSR') !== '4326' ||
      box.length !== 4 ||
      box.some((n) => !Number.isFinite(n))
    ) {
      return arcgisError(400, 'Unable to complete operation.', ['Invalid or missing input parameters.'])
    }
    const [west, south, east, north] = box as [number, number, number, number]
    matching = matching.filter((f) => {
      const [minX, minY, maxX, maxY] = boxOf(f.rings)
      return minX <= east && maxX >= west && minY <= north && maxY >= south
    })
  }
  const one = /^naturvernId = '([A-Z]{2}\d{8})'$/.exec(query.get('where') ?? '')
  if (options.anyId && one && matching.length === 0) {
    const stand = features.find((f) => f.attributes.naturvernId === 'VV00000972') ?? features[0]!
    matching = [
      {
        ...stand,
        attributes: {
          ...stand.attributes,
          naturvernId: one[1]!,
          faktaark: `https://faktaark.naturbase.no/?id=${one[1]}`,
        },
      },
    ]
  }
  const pageSize = options.maxRecordCount ?? 1000
  const page = matching.slice(0, pageSize)
  return reply({
    displayFieldName: 'navn',
    fieldAliases: Object.fromEntries(vernFields.map((f) => [f.name, f.alias])),
    geometryType: 'esriGeometryPolygon',
    spatialReference: { wkid: 4326, latestWkid: 4326 },
    fields: vernFields,
    features: page.map((f) => ({ attributes: f.attributes, geometry: { rings: f.rings } })),
    // ArcGIS writes the flag only when it cut the answer.
    ...(matching.length > pageSize ? { exceededTransferLimit: true } : {}),
  })
}

/**
 * Miljødirektoratet's `vern` MapServer played locally, serving layer 0's query from
 * {@link vernFixtures}.
 *
 * @example
 * const fake = await startFakeNaturbase()
 * createGateway({ sources: [naturbase()], upstreams: { naturbase_vern: { baseUrl: fake.baseUrl } } })
 */
export function startFakeNaturbase(options: FakeNaturbaseOptions = {}): Promise<FakeUpstream> {
  return startFakeUpstream(
    { [vernQueryPath]: (url) => answerVernQuery(url.searchParams, options) },
    { prefix: '/arcgis/rest/services/vern/MapServer' },
  )
}
