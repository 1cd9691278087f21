import { readFileSync } from 'node:fs'
import { fakeReply, startFakeUpstream, type FakeRoute, type FakeUpstream } from '@allmenning/core/testing'

type Unit = Record<string, unknown>

/**
 * The fake school register's units in full (our own, made up: schools of Oslo and Bærum), as
 * `/v4/enhet/{orgnr}` answers them. Shaped after Udir's v4 records as a 2026 importer's test
 * fixture and NSR/NBR clients read them (`Organisasjonsnummer`, `Kommune{Kommunenummer}`,
 * `Beliggenhetsadresse{Adresse,Postnummer,Poststed}`, `Koordinat{Lengdegrad,Breddegrad,Zoom,GeoKilde}`,
 * `ErGrunnskole`, `ErPrivatskole`, `DatoEndret` ...), with the register's quirks: a school
 * owner and a fagskole among the schools, a closed school, and a school whose `Koordinat` is
 * (0, 0) "Undefined" (no geocoding, as one 2026 client notes).
 */
export const nsrUnits: Unit[] = JSON.parse(
  readFileSync(new URL('./fixtures/nsr-units.json', import.meta.url), 'utf8'),
) as Unit[]

/** The fake kindergarten register's units in full (our own): Oslo and Bærum, an owner, a closed one, one without a position. */
export const nbrUnits: Unit[] = JSON.parse(
  readFileSync(new URL('./fixtures/nbr-units.json', import.meta.url), 'utf8'),
) as Unit[]

/** The fields of a unit v4 puts in an area's list (`EnhetListe`): no position, no address. */
const LIST_FIELDS = [
  'Organisasjonsnummer',
  'Navn',
  'Karakteristikk',
  'FulltNavn',
  'Fylkesnummer',
  'Kommunenummer',
  'ErAktiv',
  'ErSkole',
  'ErSkoleEier',
  'ErGrunnskole',
  'ErPrivatskole',
  'ErOffentligSkole',
  'ErVideregaaendeSkole',
  'ErSpesialskole',
  'ErBarnehage',
  'ErBarnehageEier',
  'ErOffentligBarnehage',
  'ErPrivatBarnehage',
  'ErInaktivIBasil',
  'DatoEndret',
]

/**
 * A unit as an area's list gives it.
 *
 * @example
 * listItem(nsrUnits[0]!).Kommunenummer // '0301'
 */
export function listItem(unit: Unit): Unit {
  const kommune = unit.Kommune as { Kommunenummer: string; Fylkesnummer: string }
  const full: Unit = { ...unit, Kommunenummer: kommune.Kommunenummer, Fylkesnummer: kommune.Fylkesnummer }
  return Object.fromEntries(LIST_FIELDS.filter((key) => key in full).map((key) => [key, full[key]]))
}

/** v4's page around a list: the whole area in one page (as a 2026 client's recorded Bærum list of 218 units is). */
function page(items: Unit[]): Unit {
  return {
    Sidenummer: 1,
    AntallPerSide: Math.max(items.length, 1),
    AntallSider: 1,
    TotaltAntallEnheter: items.length,
    EnhetListe: items,
  }
}

/** Settings of {@link udirRoutes}. */
export interface FakeUdirOptions {
  /**
   * For the offline demo: an unknown organisation number is answered with the first unit's
   * record under that number (the real register would have an answer for a real one); an
   * unknown municipality with Oslo's units moved there. Off in tests, where unknown is 404 or empty.
   */
  demo?: boolean
  /** Most units one page of `/enheter` holds, whatever `antallperside` asks (1000, as v4 caps it). */
  pageSize?: number
}

/**
 * The routes of one fake register over `units`: `/enheter` (the whole register, paged),
 * `/enheter/kommune/{nr}`, `/enheter/fylke/{nr}`
 * (a v4 page each, `application/json; charset=utf-8` as ASP.NET writes it; Udir's own header
 * not seen) and `/enhet/{orgnr}` (the record, or 404 for an unknown number: the real status not seen).
 *
 * @example
 * fake.route('/enhet/{orgnr}', udirRoutes(nsrUnits)['/enhet/{orgnr}'])
 */
export function udirRoutes(units: Unit[], options: FakeUdirOptions = {}): Record<string, FakeRoute> {
  const inArea = (key: 'Kommunenummer' | 'Fylkesnummer', number: string) =>
    units.filter((u) => (u.Kommune as Record<string, string>)[key] === number).map(listItem)
  const json = (body: unknown, status = 200) =>
    fakeReply.json(body, { status, contentType: 'application/json; charset=utf-8' })
  return {
    '/enheter/kommune/{nr}': (_url, _req, params) => {
      let items = inArea('Kommunenummer', params.nr!)
      if (items.length === 0 && options.demo && /^\d{4}$/.test(params.nr!)) {
        items = inArea('Kommunenummer', '0301').map((u) => ({
          ...u,
          Kommunenummer: params.nr,
          Fylkesnummer: params.nr!.slice(0, 2),
        }))
      }
      return json(page(items))
    },
    '/enheter/fylke/{nr}': (_url, _req, params) => json(page(inArea('Fylkesnummer', params.nr!))),
    // The whole register, paged as v4 pages it (`sidenummer` from 1, `antallperside` up to 1000; other
    // values' handling not seen): what the udir_enheter dataset's sync reads.
    '/enheter': (url) => {
      const size = Math.min(
        Math.max(Number(url.searchParams.get('antallperside') ?? 100) || 100, 1),
        options.pageSize ?? 1000,
      )
      const number = Math.max(Number(url.searchParams.get('sidenummer') ?? 1) || 1, 1)
      const items = units.map(listItem)
      const pageItems = items.slice((number - 1) * size, number * size)
      return json({
        Sidenummer: number,
        AntallPerSide: size,
        AntallSider: Math.max(Math.ceil(items.length / size), 1),
        TotaltAntallEnheter: items.length,
        EnhetListe: pageItems,
      })
    },
    '/enhet/{orgnr}': (_url, _req, params) => {
      const unit = units.find((u) => u.Organisasjonsnummer === params.orgnr)
      if (unit) return json(unit)
      if (options.demo && /^\d{9}$/.test(params.orgnr!)) return json({ ...units[0], Organisasjonsnummer: params.orgnr })
      return json({ Message: `Fant ikke enhet med id ${params.orgnr}` }, 404)
    },
  }
}

/**
 * A local NSR under `/v4`.
 *
 * @example
 * const nsr = await startFakeNsr()
 * createGateway({ sources: [utdanning()], upstreams: { udir_nsr: { baseUrl: nsr.baseUrl } } })
 */
export async function startFakeNsr(units: Unit[] = nsrUnits, options: FakeUdirOptions = {}): Promise<FakeUpstream> {
  return startFakeUpstream(udirRoutes(units, options), '/v4')
}

/**
 * A local NBR under `/v4`.
 *
 * @example
 * const nbr = await startFakeNbr()
 */
export async function startFakeNbr(units: Unit[] = nbrUnits, options: FakeUdirOptions = {}): Promise<FakeUpstream> {
  return startFakeUpstream(udirRoutes(units, options), '/v4')
}
