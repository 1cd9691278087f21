import { existsSync, readFileSync } from 'node:fs'
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'

const fixturePath = (name: string) => new URL(`./fixtures/${name}`, import.meta.url)
const fixture = (name: string) => readFileSync(fixturePath(name), 'utf8')

/** The day the fixtures were written for; the fakes move them to the day asked for. */
const RECORDED_DAY = '2026-01-14'
const RECORDED_NEXT_DAY = '2026-01-15'
const RECORDED_DAY_BEFORE = '2026-01-13'

const shiftDay = (date: string, days: number) =>
  new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

/** A fixture's text with its days moved to `date`, so the fake answers any day as Varsom does. */
function onDay(text: string, date: string): string {
  return text
    .replaceAll(RECORDED_DAY_BEFORE, shiftDay(date, -1))
    .replaceAll(RECORDED_NEXT_DAY, shiftDay(date, 1))
    .replaceAll(RECORDED_DAY, date)
}

// Varsom runs on ASP.NET Web API: JSON with a spaced charset, and a plain 400 for a malformed date.
const json = (text: string): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: text,
})
const badRequest = (message: string): FakeReply => ({
  status: 400,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify({ Message: message }),
})
const dateOk = (value: string | undefined) => value !== undefined && /^\d{4}-\d\d-\d\d$/.test(value)
// The language keys Varsom's clients send; an unknown one is answered as a bad request here (not seen).
const langOk = (value: string | undefined) => value === '1' || value === '2'

/**
 * A quiet day's entry for a county, as Varsom writes the green level where no warning is
 * issued: `Id`, `EventId` and `MasterId` are "xxx", no danger type, `ValidTo` at 06:59:59 (real,
 * from a recorded municipality answer). The English main text and the county list are assumed.
 */
function quietDay(hazard: 'flood' | 'landslide', county: string, lang: string, date: string): string {
  return JSON.stringify([
    {
      EventId: 'xxx',
      Id: 'xxx',
      MasterId: 'xxx',
      Version: 1,
      LangKey: Number(lang),
      ActivityLevel: '1',
      DangerTypeName: null,
      MainText: lang === '1' ? 'Grønt nivå' : 'Green level',
      WarningText: null,
      AdviceText: null,
      ConsequenceText: null,
      ValidFrom: `${date}T07:00:00`,
      ValidTo: `${shiftDay(date, 1)}T06:59:59`,
      NextWarningTime: `${date}T15:30:00`,
      PublishTime: `${date}T10:57:23.1427924`,
      CountyList: [{ Id: county, Name: null }],
      MunicipalityList: [],
      CauseList: [],
      ImageUrlList: [],
      WarningType: hazard === 'flood' ? 'Flood' : 'Landslide',
    },
  ])
}

/** Options of {@link startFakeVarsomHydro}. */
export interface FakeVarsomHydroOptions {
  /**
   * Answer a county without a fixture with a quiet day's green entry, as Varsom does, instead of
   * an empty list: what the offline demo plays, so every county has an answer.
   */
  quietDays?: boolean
}

/**
 * A local Varsom flood or landslide API under `/hydrology/forecast/<hazard>/v1.0.10/api`:
 * `/Warning/County/{county}/{langkey}/{start}/{end}` answers the recorded warnings of counties
 * 46 (Vestland), 18 (Nordland) and 03 (Oslo), moved to the day asked for, and for any other
 * county an empty list (or, with `quietDays`, a quiet day's green entry); the flood warnings
 * of county 46 in Norwegian with langkey 1 (the others come in English whatever the key).
 * Levels are strings, as Varsom sends them, and times local without an offset.
 *
 * @example
 * const flood = await startFakeVarsomHydro('flood')
 * createGateway({ sources: [nve()], upstreams: { nve_flood: { baseUrl: flood.baseUrl } } })
 */
export async function startFakeVarsomHydro(
  hazard: 'flood' | 'landslide',
  options: FakeVarsomHydroOptions = {},
): Promise<FakeUpstream> {
  return startFakeUpstream(
    {
      '/Warning/County/{county}/{lang}/{start}/{end}': (_url, _req, params) => {
        if (!dateOk(params['start']) || !dateOk(params['end']))
          return badRequest('The request is invalid: dates are YYYY-MM-DD')
        if (!langOk(params['lang'])) return badRequest('The request is invalid: unknown language key')
        const county = params['county']!
        const norwegian = `${hazard}-county-${county}-no.json`
        const name =
          params['lang'] === '1' && existsSync(fixturePath(norwegian)) ? norwegian : `${hazard}-county-${county}.json`
        if (existsSync(fixturePath(name))) return json(onDay(fixture(name), params['start']!))
        return json(
          options.quietDays && /^\d{2}$/.test(county)
            ? quietDay(hazard, county, params['lang']!, params['start']!)
            : '[]',
        )
      },
    },
    `/hydrology/forecast/${hazard}/v1.0.10/api`,
  )
}

/**
 * A local Varsom avalanche API under `/hydrology/forecast/avalanche/v6.3.0/api`:
 * `/AvalancheWarningByCoordinates/Simple/{lat}/{lon}/{langkey}/{start}/{end}` answers the
 * recorded A-region Saltfjellet for points around Rana and Hemnes (level as a string), an
 * auto-generated level-0 warning of a B region (level as a number) for points in Vestland, and
 * an empty list elsewhere, as out of season; `/Warning/All/{langkey}/{start}/{end}` the
 * recorded Detail warnings with their counties and municipalities.
 */
export async function startFakeVarsomAvalanche(): Promise<FakeUpstream> {
  return startFakeUpstream(
    {
      '/AvalancheWarningByCoordinates/Simple/{lat}/{lon}/{lang}/{start}/{end}': (_url, _req, params) => {
        if (!dateOk(params['start']) || !dateOk(params['end']))
          return badRequest('The request is invalid: dates are YYYY-MM-DD')
        if (!langOk(params['lang'])) return badRequest('The request is invalid: unknown language key')
        const lat = Number(params['lat'])
        const lon = Number(params['lon'])
        if (!Number.isFinite(lat) || !Number.isFinite(lon)) return badRequest('The request is invalid: coordinates')
        if (lat > 65.5 && lat < 67 && lon > 13 && lon < 16)
          return json(onDay(fixture('avalanche-point-saltfjellet.json'), params['start']!))
        if (lat > 59.5 && lat < 62 && lon > 4.5 && lon < 8)
          return json(onDay(fixture('avalanche-point-hordaland.json'), params['start']!))
        return json('[]')
      },
      '/Warning/All/{lang}/{start}/{end}': (_url, _req, params) => {
        if (!dateOk(params['start']) || !dateOk(params['end']))
          return badRequest('The request is invalid: dates are YYYY-MM-DD')
        if (!langOk(params['lang'])) return badRequest('The request is invalid: unknown language key')
        return json(onDay(fixture('avalanche-all.json'), params['start']!))
      },
    },
    '/hydrology/forecast/avalanche/v6.3.0/api',
  )
}
