import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { recordedAddresses, startFakeKartverketAdresser } from '@allmenning/sources/geonorge/testing'
import { areaAdresser, areaEnheter } from './area-fixtures.js'
import { brregFixtures, startFakeBrreg, type BrregRecord } from './fake-brreg.js'
import { regnskapFixtures, startFakeRegnskapsregisteret } from './fake-regnskapsregisteret.js'

/** The recorded unit a number the fixtures lack is answered with: an Oslo auditor with 31 employees. */
const TEMPLATE_UNIT = '912346099'
/** The recorded statement (and roles) such a number is answered with: a small company's, in NOK. */
const TEMPLATE_STATEMENT = '976030788'
const TEMPLATE_ROLES = '976030788'

/**
 * A plausible unit for any valid number the fixtures lack, as the real register has one for
 * most: the template unit under that number, named so that nobody takes it for real data.
 */
function demoUnit(template: BrregRecord, orgnr: string): BrregRecord {
  return {
    ...structuredClone(template),
    organisasjonsnummer: orgnr,
    navn: `DEMOSELSKAP ${orgnr} AS`,
    _links: { self: { href: `https://data.brreg.no/enhetsregisteret/api/enheter/${orgnr}` } },
  }
}

/** The template roles under another number: only the links name one. */
function demoRoles(template: unknown, orgnr: string): unknown {
  const copy = structuredClone(template) as { _links?: unknown }
  copy._links = {
    self: { href: `https://data.brreg.no/enhetsregisteret/api/enheter/${orgnr}/roller` },
    enhet: { href: `https://data.brreg.no/enhetsregisteret/api/enheter/${orgnr}` },
  }
  return copy
}

/** The template statement under another number: `virksomhet.organisasjonsnummer` is the only place it names one. */
function demoStatements(template: unknown[], orgnr: string): unknown[] {
  return template.map((statement) => {
    const copy = structuredClone(statement) as { virksomhet?: { organisasjonsnummer?: string } }
    if (copy.virksomhet) copy.virksomhet.organisasjonsnummer = orgnr
    return copy
  })
}

/**
 * Firmafakta's live upstreams played on 127.0.0.1 for the offline demo (`ALLMENNING_DEMO=1`):
 * - `brreg`: the recorded units with the area fixtures (DNB, Equinor, Norsk Hydro and central
 *   Oslo companies, so `finn_selskaper?kommunenummer=0301`, name searches for `DNB` or
 *   `Equinor` and `selskapsdetaljer?org_nr=923609016` answer), and any other valid number
 *   answered with a recorded unit and roles under that number (`DEMOSELSKAP <orgnr> AS`);
 * - `brreg_regnskap`: the recorded statements, and a recorded one for any other number;
 * - `kartverket_adresser`: geonorge's recorded addresses and those of the area fixtures, so
 *   `finn_selskaper_i_omrade` at the Oslo point (59.91, 10.75) places a dozen companies.
 * The operations that read datasets (shareholders, grants) call no upstream: the demo's
 * dataset store serves them.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * const upstreams = Object.fromEntries(Object.entries(demo.fakes).map(([id, fake]) => [id, { baseUrl: fake.baseUrl }]))
 * createGateway({ sources: [firmafakta()], upstreams })
 * await demo.close()
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  const fixtures = brregFixtures()
  const template = fixtures.enheter.find((unit) => unit.organisasjonsnummer === TEMPLATE_UNIT)
  const statements = regnskapFixtures()
  const statement = statements[TEMPLATE_STATEMENT]
  const roles = fixtures.roller[TEMPLATE_ROLES]
  if (!template || !statement || !roles) throw new Error('The demo templates are missing from the firmafakta fixtures')
  const subUnits = new Set(fixtures.underenheter.map((unit) => unit.organisasjonsnummer))
  const [brreg, regnskap, adresser] = await Promise.all([
    startFakeBrreg({
      ...fixtures,
      enheter: [...fixtures.enheter, ...areaEnheter()],
      // A sub-unit's number stays unknown as a main entity, so selskapsdetaljer still finds the sub-unit.
      otherNumbers: (orgnr) =>
        subUnits.has(orgnr) ? undefined : { enhet: demoUnit(template, orgnr), roller: demoRoles(roles, orgnr) },
    }),
    startFakeRegnskapsregisteret(statements, (orgnr) => demoStatements(statement, orgnr)),
    startFakeKartverketAdresser({ addresses: [...recordedAddresses, ...areaAdresser()] }),
  ])
  return demoUpstreams({ brreg: brreg.upstream, brreg_regnskap: regnskap, kartverket_adresser: adresser })
}
