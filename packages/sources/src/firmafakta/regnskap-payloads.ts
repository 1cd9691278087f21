import * as v from 'valibot'

// What Regnskapsregisteret sends for `/regnskap/{orgnr}` (upstreams-3.md §4.1). A line the
// statement does not have is an empty object (`"driftsinntekter":{}`), not 0 or null, and
// `totalresultat` may be missing: every amount is nullish, every group optional.

const amount = v.nullish(v.number())
const group = <T extends v.ObjectEntries>(entries: T) => v.nullish(v.looseObject(entries))

/** One statement. Two wire names are misspelt by the register itself and read as sent. */
export const regnskapSchema = v.looseObject({
  id: v.nullish(v.number()),
  journalnr: v.nullish(v.string()),
  regnskapstype: v.nullish(v.string()),
  virksomhet: group({
    organisasjonsnummer: v.nullish(v.string()),
    organisasjonsform: v.nullish(v.string()),
    morselskap: v.nullish(v.boolean()),
  }),
  regnskapsperiode: v.looseObject({ fraDato: v.string(), tilDato: v.string() }),
  valuta: v.nullish(v.string()),
  avviklingsregnskap: v.nullish(v.boolean()),
  oppstillingsplan: v.nullish(v.string()),
  revisjon: group({ ikkeRevidertAarsregnskap: v.nullish(v.boolean()), fravalgRevisjon: v.nullish(v.boolean()) }),
  // Sic: "regnkapsprinsipper". The correct spelling is read too, should the register fix it.
  regnkapsprinsipper: group({ smaaForetak: v.nullish(v.boolean()), regnskapsregler: v.nullish(v.string()) }),
  regnskapsprinsipper: group({ smaaForetak: v.nullish(v.boolean()), regnskapsregler: v.nullish(v.string()) }),
  egenkapitalGjeld: group({
    sumEgenkapitalGjeld: amount,
    egenkapital: group({
      sumEgenkapital: amount,
      opptjentEgenkapital: group({ sumOpptjentEgenkapital: amount }),
      // Sic: "sumInnskuttEgenkaptial"; the correct spelling is read too.
      innskuttEgenkapital: group({ sumInnskuttEgenkaptial: amount, sumInnskuttEgenkapital: amount }),
    }),
    gjeldOversikt: group({
      sumGjeld: amount,
      kortsiktigGjeld: group({ sumKortsiktigGjeld: amount }),
      langsiktigGjeld: group({ sumLangsiktigGjeld: amount }),
    }),
  }),
  eiendeler: group({
    sumEiendeler: amount,
    omloepsmidler: group({ sumOmloepsmidler: amount }),
    anleggsmidler: group({ sumAnleggsmidler: amount }),
  }),
  resultatregnskapResultat: group({
    ordinaertResultatFoerSkattekostnad: amount,
    aarsresultat: amount,
    totalresultat: amount,
    finansresultat: group({
      nettoFinans: amount,
      finansinntekt: group({ sumFinansinntekter: amount }),
      finanskostnad: group({ sumFinanskostnad: amount }),
    }),
    driftsresultat: group({
      driftsresultat: amount,
      driftsinntekter: group({ sumDriftsinntekter: amount }),
      driftskostnad: group({ sumDriftskostnad: amount }),
    }),
  }),
})

/** A statement as Regnskapsregisteret sends it. */
export type Regnskap = v.InferOutput<typeof regnskapSchema>

/** The body: a JSON array, normally of one statement, empty when there is none. */
export const regnskapListSchema = v.array(regnskapSchema)
