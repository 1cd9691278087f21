import { startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'

/** An address as Kartverket's `/punktsok` answers it, the fields the geonorge fixtures record. */
interface DemoAddress {
  adressenavn: string | null
  adressetekst: string
  adressetilleggsnavn: string | null
  adressekode: number | null
  nummer: number | null
  bokstav: string
  kommunenummer: string
  kommunenavn: string
  gardsnummer: number
  bruksnummer: number
  festenummer: number
  undernummer: null
  bruksenhetsnummer: string[]
  objtype: 'Vegadresse' | 'Matrikkeladresse'
  poststed: string
  postnummer: string
  adressetekstutenadressetilleggsnavn: string
  stedfestingverifisert: boolean
  representasjonspunkt: { epsg: string; lat: number; lon: number }
  oppdateringsdato: string
}

const street = (
  name: string,
  number: number,
  code: number,
  municipality: [string, string],
  post: [string, string],
  lot: [number, number],
  lat: number,
  lon: number,
  updated: string,
): DemoAddress => ({
  adressenavn: name,
  adressetekst: `${name} ${number}`,
  adressetilleggsnavn: null,
  adressekode: code,
  nummer: number,
  bokstav: '',
  kommunenummer: municipality[0],
  kommunenavn: municipality[1],
  gardsnummer: lot[0],
  bruksnummer: lot[1],
  festenummer: 0,
  undernummer: null,
  bruksenhetsnummer: ['H0101'],
  objtype: 'Vegadresse',
  poststed: post[1],
  postnummer: post[0],
  adressetekstutenadressetilleggsnavn: `${name} ${number}`,
  stedfestingverifisert: true,
  representasjonspunkt: { epsg: 'EPSG:4258', lat, lon },
  oppdateringsdato: updated,
})

/**
 * One address in the centre of a town of each price area, so the demo places a point near
 * any of them: Oslo and Bergen as the geonorge fixtures record them, the others made up in the
 * same shape. Kept in code, not in a fixture file: this module is shared by the statnett and
 * strompris testing entries, and a bundler puts shared code where `./fixtures/` is not.
 */
const DEMO_ADDRESSES: DemoAddress[] = [
  street(
    'Robert Levins gate',
    1,
    21807,
    ['0301', 'OSLO'],
    ['0150', 'OSLO'],
    [207, 451],
    59.912873861402154,
    10.756315512041683,
    '2021-04-13T12:10:03',
  ),
  street(
    'Markens gate',
    1,
    4520,
    ['4204', 'KRISTIANSAND'],
    ['4611', 'KRISTIANSAND S'],
    [150, 1020],
    58.14571,
    7.99452,
    '2022-03-02T09:14:40',
  ),
  street(
    'Torget',
    1,
    5120,
    ['1103', 'STAVANGER'],
    ['4006', 'STAVANGER'],
    [55, 310],
    58.97021,
    5.73296,
    '2020-11-19T13:41:22',
  ),
  street(
    'Munkegata',
    1,
    7300,
    ['5001', 'TRONDHEIM'],
    ['7011', 'TRONDHEIM'],
    [400, 112],
    63.43048,
    10.39506,
    '2021-06-23T08:02:51',
  ),
  street(
    'Storgata',
    1,
    1400,
    ['5501', 'TROMSØ'],
    ['9008', 'TROMSØ'],
    [200, 1315],
    69.64953,
    18.95562,
    '2019-09-30T10:21:05',
  ),
  street(
    'Bryggen',
    1,
    10340,
    ['4601', 'BERGEN'],
    ['5003', 'BERGEN'],
    [165, 360],
    60.39757185307625,
    5.323229426703581,
    '2021-10-08T11:11:11',
  ),
]

function metres(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180
  const h =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(h))
}

// ws.geonorge.no answers with a charset; the body of its 400 is not documented (a short JSON message is assumed).
const json = (body: unknown, status = 200): FakeReply => ({
  status,
  headers: { 'content-type': 'application/json;charset=UTF-8' },
  body: JSON.stringify(body),
})

/**
 * Kartverket's address API under `/adresser/v1` for the offline demo, over {@link DEMO_ADDRESSES}:
 * `/punktsok` (what `municipalityOfPoint` asks) finds those within `radius` metres (100 by
 * default) of `lat`/`lon`, nearest first with `meterDistanseTilPunkt`; `/sok` those whose text,
 * postcode, post town or municipality holds every word of `sok`. Both page by `treffPerSide`
 * and 0-based `side`, with Kartverket's metadata. geonorge's own fake plays the whole API from
 * its recorded addresses; this one is for sources that only place a point.
 *
 * @example
 * const kartverket = await startDemoKartverketAdresser()
 * // GET {baseUrl}/punktsok?lat=59.91&lon=10.75&radius=5000 → Robert Levins gate 1, OSLO (0301)
 */
export async function startDemoKartverketAdresser(): Promise<FakeUpstream> {
  const answer = (url: URL, found: Array<{ a: DemoAddress; d?: number }>) => {
    const size = Number(url.searchParams.get('treffPerSide') ?? 10)
    const side = Number(url.searchParams.get('side') ?? 0)
    const page = found.slice(side * size, side * size + size)
    return json({
      metadata: {
        treffPerSide: size,
        side,
        totaltAntallTreff: found.length,
        viserFra: side * size,
        viserTil: side * size + size,
        sokeStreng: url.search.slice(1),
        asciiKompatibel: true,
      },
      adresser: page.map(({ a, d }) =>
        d === undefined ? a : { ...a, meterDistanseTilPunkt: Math.round(d * 10) / 10 },
      ),
    })
  }
  return startFakeUpstream(
    {
      '/punktsok': (url) => {
        const query = url.searchParams
        if (!query.get('lat') || !query.get('lon')) return json({ message: 'lat and lon are required' }, 400)
        const lat = Number(query.get('lat'))
        const lon = Number(query.get('lon'))
        const radius = Number(query.get('radius') ?? 100)
        const near = DEMO_ADDRESSES.map((a) => ({
          a,
          d: metres(lat, lon, a.representasjonspunkt.lat, a.representasjonspunkt.lon),
        }))
          .filter(({ d }) => d <= radius)
          .sort((x, y) => x.d - y.d)
        return answer(url, near)
      },
      '/sok': (url) => {
        const words = (url.searchParams.get('sok') ?? '')
          .toLowerCase()
          .split(/\s+/)
          .filter(Boolean)
          .map((word) => word.replace(/\*$/, ''))
        if (words.length === 0) return json({ message: 'At least one search parameter is required' }, 400)
        const text = (a: DemoAddress) =>
          `${a.adressetekst} ${a.postnummer} ${a.poststed} ${a.kommunenavn}`.toLowerCase()
        return answer(
          url,
          DEMO_ADDRESSES.filter((a) => words.every((word) => text(a).includes(word))).map((a) => ({ a })),
        )
      },
    },
    '/adresser/v1',
  )
}
