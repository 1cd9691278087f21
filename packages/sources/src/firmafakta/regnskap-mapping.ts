import * as v from 'valibot'
import type { Regnskap } from './regnskap-payloads.js'

const amount = (what: string) =>
  v.pipe(
    v.nullable(v.number()),
    v.description(`${what}, in whole units of valuta; null when the statement has no such line`),
  )

/**
 * The last financial statement of a company: the register's own names, spelt right, its
 * nested groups flattened into the income statement and the balance sheet, and a line the
 * statement does not have (the register's empty object) as null.
 */
export const regnskapsdataSchema = v.object({
  organisasjonsnummer: v.string(),
  regnskapsaar: v.pipe(v.string(), v.description('The accounting year: the year the period ends in')),
  regnskapsperiode: v.object({ fraDato: v.string(), tilDato: v.string() }),
  valuta: v.pipe(
    v.string(),
    v.description('Currency of every amount, as filed: usually NOK, but not always (USD, EUR)'),
  ),
  regnskapstype: v.pipe(v.nullable(v.string()), v.description('SELSKAP (the company) or KONSERN (group accounts)')),
  oppstillingsplan: v.pipe(v.nullable(v.string()), v.description('smaa, store or oevrige')),
  avviklingsregnskap: v.nullable(v.boolean()),
  organisasjonsform: v.nullable(v.string()),
  morselskap: v.nullable(v.boolean()),
  journalnr: v.nullable(v.string()),
  revisjon: v.object({ ikkeRevidertAarsregnskap: v.nullable(v.boolean()), fravalgRevisjon: v.nullable(v.boolean()) }),
  regnskapsprinsipper: v.object({
    smaaForetak: v.nullable(v.boolean()),
    regnskapsregler: v.pipe(
      v.nullable(v.string()),
      v.description('IFRS, forenkletAnvendelseIFRS or regnskapslovenAlminneligRegler'),
    ),
  }),
  resultatregnskap: v.object({
    sumDriftsinntekter: amount('Operating income'),
    sumDriftskostnad: amount('Operating expenses'),
    driftsresultat: amount('Operating result'),
    sumFinansinntekter: amount('Financial income'),
    sumFinanskostnad: amount('Financial expenses'),
    nettoFinans: amount('Net financial items'),
    ordinaertResultatFoerSkattekostnad: amount('Ordinary result before tax'),
    aarsresultat: amount('Result for the year'),
    totalresultat: amount('Total comprehensive income'),
  }),
  balanse: v.object({
    sumEiendeler: amount('Total assets'),
    sumAnleggsmidler: amount('Fixed assets'),
    sumOmloepsmidler: amount('Current assets'),
    sumEgenkapital: amount('Equity'),
    sumInnskuttEgenkapital: amount('Paid-in equity'),
    sumOpptjentEgenkapital: amount('Retained earnings'),
    sumGjeld: amount('Liabilities'),
    sumKortsiktigGjeld: amount('Current liabilities'),
    sumLangsiktigGjeld: amount('Long-term liabilities'),
    sumEgenkapitalGjeld: amount('Equity and liabilities'),
  }),
})

/** The mapped statement. */
export type Regnskapsdata = v.InferOutput<typeof regnskapsdataSchema>

/**
 * The statement to answer of those the register sends: the latest period, and of one period
 * the company's own accounts before the group's.
 *
 * @example
 * // rows: a company's and its group's accounts for the same year
 * latestStatement(rows)?.regnskapstype // 'SELSKAP'
 */
export function latestStatement(statements: Regnskap[]): Regnskap | undefined {
  const rank = (s: Regnskap) => `${s.regnskapsperiode.tilDato}|${s.regnskapstype === 'SELSKAP' ? 1 : 0}`
  return [...statements].sort((a, b) => rank(b).localeCompare(rank(a)))[0]
}

/**
 * Maps one statement. `orgNr` fills the number when `virksomhet` leaves it out; the currency is
 * NOK only when the register names none, which the recorded answers never do.
 *
 * @example
 * toRegnskapsdata(row, '976030788').resultatregnskap.sumDriftsinntekter // null for a holding company
 */
export function toRegnskapsdata(statement: Regnskap, orgNr: string): Regnskapsdata {
  const result = statement.resultatregnskapResultat
  const equity = statement.egenkapitalGjeld?.egenkapital
  const debt = statement.egenkapitalGjeld?.gjeldOversikt
  const principles = statement.regnkapsprinsipper ?? statement.regnskapsprinsipper
  const paidIn = equity?.innskuttEgenkapital
  return {
    organisasjonsnummer: statement.virksomhet?.organisasjonsnummer ?? orgNr,
    regnskapsaar: statement.regnskapsperiode.tilDato.slice(0, 4),
    regnskapsperiode: { fraDato: statement.regnskapsperiode.fraDato, tilDato: statement.regnskapsperiode.tilDato },
    valuta: statement.valuta ?? 'NOK',
    regnskapstype: statement.regnskapstype ?? null,
    oppstillingsplan: statement.oppstillingsplan ?? null,
    avviklingsregnskap: statement.avviklingsregnskap ?? null,
    organisasjonsform: statement.virksomhet?.organisasjonsform ?? null,
    morselskap: statement.virksomhet?.morselskap ?? null,
    journalnr: statement.journalnr ?? null,
    revisjon: {
      ikkeRevidertAarsregnskap: statement.revisjon?.ikkeRevidertAarsregnskap ?? null,
      fravalgRevisjon: statement.revisjon?.fravalgRevisjon ?? null,
    },
    regnskapsprinsipper: {
      smaaForetak: principles?.smaaForetak ?? null,
      regnskapsregler: principles?.regnskapsregler ?? null,
    },
    resultatregnskap: {
      sumDriftsinntekter: result?.driftsresultat?.driftsinntekter?.sumDriftsinntekter ?? null,
      sumDriftskostnad: result?.driftsresultat?.driftskostnad?.sumDriftskostnad ?? null,
      driftsresultat: result?.driftsresultat?.driftsresultat ?? null,
      sumFinansinntekter: result?.finansresultat?.finansinntekt?.sumFinansinntekter ?? null,
      sumFinanskostnad: result?.finansresultat?.finanskostnad?.sumFinanskostnad ?? null,
      nettoFinans: result?.finansresultat?.nettoFinans ?? null,
      ordinaertResultatFoerSkattekostnad: result?.ordinaertResultatFoerSkattekostnad ?? null,
      aarsresultat: result?.aarsresultat ?? null,
      totalresultat: result?.totalresultat ?? null,
    },
    balanse: {
      sumEiendeler: statement.eiendeler?.sumEiendeler ?? null,
      sumAnleggsmidler: statement.eiendeler?.anleggsmidler?.sumAnleggsmidler ?? null,
      sumOmloepsmidler: statement.eiendeler?.omloepsmidler?.sumOmloepsmidler ?? null,
      sumEgenkapital: equity?.sumEgenkapital ?? null,
      sumInnskuttEgenkapital: paidIn?.sumInnskuttEgenkaptial ?? paidIn?.sumInnskuttEgenkapital ?? null,
      sumOpptjentEgenkapital: equity?.opptjentEgenkapital?.sumOpptjentEgenkapital ?? null,
      sumGjeld: debt?.sumGjeld ?? null,
      sumKortsiktigGjeld: debt?.kortsiktigGjeld?.sumKortsiktigGjeld ?? null,
      sumLangsiktigGjeld: debt?.langsiktigGjeld?.sumLangsiktigGjeld ?? null,
      sumEgenkapitalGjeld: statement.egenkapitalGjeld?.sumEgenkapitalGjeld ?? null,
    },
  }
}
