import { readFileSync } from 'node:fs'
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'

const fixture = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as T

/** An address as Kartverket's address API sends it. */
export interface RecordedAddress {
  adressetekst: string
  postnummer: string
  poststed: string
  kommunenummer: string
  kommunenavn: string
  representasjonspunkt: { epsg: string; lat: number; lon: number }
  [key: string]: unknown
}

/** A place as Kartverket's place-name API sends it from `/sted`. */
export interface RecordedPlace {
  stedsnummer: number
  navneobjekttype: string
  stedsnavn: { skrivemåte: string }[]
  kommuner: { kommunenummer: string }[]
  representasjonspunkt: { koordsys: number | string; nord: number; øst: number }
  [key: string]: unknown
}

/** The recorded addresses and places the fakes search, in Kartverket's own shapes. */
export const recordedAddresses = fixture<RecordedAddress[]>('addresses.json')
export const recordedPlaces = fixture<RecordedPlace[]>('places.json')

// ws.geonorge.no answers with a charset; api.kartverket.no without one.
const addressJson = (body: unknown): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'application/json;charset=UTF-8' },
  body: JSON.stringify(body),
})
const placeJson = (body: unknown): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})
// The body of Kartverket's 400 is not documented; a short JSON message is assumed.
const badRequest = (message: string): FakeReply => ({
  status: 400,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ message }),
})

function metres(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180
  const h =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(h))
}

const int = (value: string | null, fallback: number) => (value === null || value === '' ? fallback : Number(value))

/** Pages a list as Kartverket does: `treffPerSide` hits from page `side`, numbered from `first`. */
function paged<T>(list: T[], url: URL, first: 0 | 1, defaultSize: number) {
  const size = int(url.searchParams.get('treffPerSide'), defaultSize)
  const side = int(url.searchParams.get('side'), first)
  const from = (side - first) * size
  return { size, side, from, hits: list.slice(from, from + size) }
}

function addressCrs(url: URL): string | undefined {
  const crs = url.searchParams.get('utkoordsys') ?? '4258'
  return crs === '4258' || crs === '4326' ? `EPSG:${crs}` : undefined
}

/**
 * The search as ws.geonorge.no echoes it in `sokeStreng`: the parameters given, spaces as
 * `%20`, then the defaults it applied (`treffPerSide=10&side=0&asciiKompatibel=true`), as in
 * a real answer to `sok=arendalsgata 12&fuzzy=true&utkoordsys=4258`.
 */
function addressSearchEcho(url: URL): string {
  const given = [...url.searchParams].map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
  const defaults = Object.entries({ treffPerSide: '10', side: '0', asciiKompatibel: 'true' })
    .filter(([key]) => !url.searchParams.has(key))
    .map(([key, value]) => `${key}=${value}`)
  return [...given, ...defaults].join('&')
}

function addressAnswer(
  url: URL,
  matches: RecordedAddress[],
  extra?: (a: RecordedAddress) => Record<string, unknown>,
): FakeReply {
  const epsg = addressCrs(url)
  if (!epsg) return badRequest('utkoordsys: unsupported coordinate system')
  const { size, side, from, hits } = paged(matches, url, 0, 10)
  return addressJson({
    metadata: {
      treffPerSide: size,
      side,
      totaltAntallTreff: matches.length,
      viserFra: from,
      // The end of the page asked for, even past the hits: 10 for 4 hits in a real answer.
      viserTil: from + size,
      sokeStreng: addressSearchEcho(url),
      asciiKompatibel: true,
    },
    adresser: hits.map((a) => ({
      ...a,
      representasjonspunkt: { ...a.representasjonspunkt, epsg },
      ...(extra ? extra(a) : {}),
    })),
  })
}

const fold = (text: string) => text.toLowerCase().replace(/\*$/, '')
// The API is asked for a kind by its code (administrativBydel) and names it in its answers as
// "Administrativ bydel"; both are read the same here.
const kindOf = (text: string) => text.toLowerCase().replace(/\s+/g, '')

/** What a fake address API holds and how it searches. */
export interface FakeAdresserOptions {
  /** The addresses it knows; the recorded ones by default. */
  addresses?: RecordedAddress[]
  /**
   * When no address has every word of `sok`, try the words without digits (the street and
   * place): a house number the fake does not hold finds the street's others, as a demo should.
   */
  streetFallback?: boolean
}

/**
 * A local Kartverket address API under `/adresser/v1`: `/sok` matches every word of `sok`
 * against its addresses (the recorded ones by default), `/punktsok` finds those within
 * `radius` metres, nearest first with `meterDistanseTilPunkt`. Both page with `treffPerSide`
 * and 0-based `side`, give points in the `utkoordsys` asked for (4258 by default) and answer
 * Kartverket's metadata.
 *
 * @example
 * const adresser = await startFakeKartverketAdresser()
 * createTestGateway({ sources: geonorge(), upstreams: { kartverket_adresser: adresser } })
 */
export async function startFakeKartverketAdresser(options: FakeAdresserOptions = {}): Promise<FakeUpstream> {
  const addresses = options.addresses ?? recordedAddresses
  return startFakeUpstream(
    {
      '/sok': (url) => {
        const sok = url.searchParams.get('sok')
        const kommunenummer = url.searchParams.get('kommunenummer')
        const postnummer = url.searchParams.get('postnummer')
        if (!sok && !kommunenummer && !postnummer) return badRequest('At least one search parameter is required')
        const words = (sok ?? '').split(/\s+/).filter(Boolean).map(fold)
        const having = (wanted: string[]) =>
          addresses.filter((a) => {
            const haystack = `${a.adressetekst} ${a.postnummer} ${a.poststed} ${a.kommunenavn}`.toLowerCase()
            return (
              wanted.every((word) => haystack.includes(word)) &&
              (!kommunenummer || a.kommunenummer === kommunenummer) &&
              (!postnummer || a.postnummer === postnummer)
            )
          })
        const matches = having(words)
        const streetWords = words.filter((word) => !/\d/.test(word))
        const fallback =
          options.streetFallback && matches.length === 0 && streetWords.length > 0 && streetWords.length < words.length
        return addressAnswer(url, fallback ? having(streetWords) : matches)
      },
      '/punktsok': (url) => {
        const lat = Number(url.searchParams.get('lat'))
        const lon = Number(url.searchParams.get('lon'))
        const radius = int(url.searchParams.get('radius'), 100)
        if (!url.searchParams.get('lat') || !url.searchParams.get('lon')) return badRequest('lat and lon are required')
        const near = addresses
          .map((a) => ({ a, d: metres(lat, lon, a.representasjonspunkt.lat, a.representasjonspunkt.lon) }))
          .filter(({ d }) => d <= radius)
          .sort((x, y) => x.d - y.d)
        const distance = new Map(near.map(({ a, d }) => [a, Math.round(d * 10) / 10]))
        return addressAnswer(
          url,
          near.map(({ a }) => a),
          (a) => ({ meterDistanseTilPunkt: distance.get(a) }),
        )
      },
    },
    '/adresser/v1',
  )
}

function placeMetadata(url: URL, total: number, size: number, side: number, from: number) {
  // Kartverket's viserTil is the end of the page asked for, even when fewer hits came back.
  return {
    side,
    sokeStreng: url.search.slice(1),
    totaltAntallTreff: total,
    treffPerSide: size,
    viserFra: from + 1,
    viserTil: from + size,
  }
}

function placeCrsOk(url: URL, name: string): boolean {
  const crs = url.searchParams.get(name) ?? '4258'
  return crs === '4258' || crs === '4326'
}

/**
 * A local Kartverket place-name API under `/stedsnavn/v1`: `/sted` finds its places (the
 * recorded ones by default) by `sok` (a name that starts with it, any case; `*` allowed),
 * `stedsnummer`, `knr` and `navneobjekttype` (its code or its name); `/punkt` finds those
 * within `radius` metres of `nord`/`ost` (`koordsys` required, as Kartverket requires it) with
 * `meterFraPunkt`, and without municipalities and counties. Both page with `treffPerSide` and
 * 1-based `side` (at most 500).
 *
 * @example
 * const stedsnavn = await startFakeKartverketStedsnavn()
 * createTestGateway({ sources: geonorge(), upstreams: { kartverket_stedsnavn: stedsnavn } })
 */
export async function startFakeKartverketStedsnavn(places: RecordedPlace[] = recordedPlaces): Promise<FakeUpstream> {
  return startFakeUpstream(
    {
      '/sted': (url) => {
        if (!placeCrsOk(url, 'utkoordsys')) return badRequest('utkoordsys: unsupported coordinate system')
        const sok = url.searchParams.get('sok')
        const nummer = url.searchParams.get('stedsnummer')
        const knr = url.searchParams.getAll('knr')
        const type = url.searchParams.get('navneobjekttype')
        const matches = places.filter(
          (p) =>
            (!sok || p.stedsnavn.some((n) => n.skrivemåte.toLowerCase().startsWith(fold(sok)))) &&
            (!nummer || String(p.stedsnummer) === nummer) &&
            (knr.length === 0 || p.kommuner.some((k) => knr.includes(k.kommunenummer))) &&
            (!type || kindOf(p.navneobjekttype) === kindOf(type)),
        )
        const { size, side, from, hits } = paged(matches, url, 1, 10)
        if (side > 500 || size > 500) return badRequest('side and treffPerSide must be at most 500')
        return placeJson({ metadata: placeMetadata(url, matches.length, size, side, from), navn: hits })
      },
      '/punkt': (url) => {
        const nord = url.searchParams.get('nord')
        const ost = url.searchParams.get('ost')
        if (!nord || !ost || !url.searchParams.get('koordsys')) return badRequest('nord, ost and koordsys are required')
        if (!placeCrsOk(url, 'koordsys') || !placeCrsOk(url, 'utkoordsys'))
          return badRequest('unsupported coordinate system')
        const radius = int(url.searchParams.get('radius'), 500)
        if (radius > 5000) return badRequest('radius must be at most 5000')
        const near = places
          .map((p) => ({
            p,
            d: metres(Number(nord), Number(ost), p.representasjonspunkt.nord, p.representasjonspunkt.øst),
          }))
          .filter(({ d }) => d <= radius)
          .sort((x, y) => x.d - y.d)
        const { size, side, from, hits } = paged(near, url, 1, 10)
        return placeJson({
          metadata: placeMetadata(url, near.length, size, side, from),
          navn: hits.map(({ p, d }) => ({
            meterFraPunkt: Math.round(d),
            navneobjekttype: p.navneobjekttype,
            representasjonspunkt: p.representasjonspunkt,
            stedsnavn: p.stedsnavn,
            stedsnummer: p.stedsnummer,
            stedstatus: p['stedstatus'],
          })),
        })
      },
    },
    '/stedsnavn/v1',
  )
}
