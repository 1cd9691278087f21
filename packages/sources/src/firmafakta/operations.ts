import { aksjeeiereForSelskap } from './aksjeeiere-for-selskap.js'
import { aksjeposterForPerson } from './aksjeposter-for-person.js'
import { euTildelingerForSelskap } from './eu-tildelinger-for-selskap.js'
import { createAddressGeocoder } from './address-geocoder.js'
import { createCircleMunicipalities } from './circle-municipalities.js'
import { finnSelskaper } from './finn-selskaper.js'
import { createFinnSelskaperIOmrade } from './finn-selskaper-i-omrade.js'
import { forskningsradetTildelingerForSelskap } from './forskningsradet-tildelinger-for-selskap.js'
import { getCompanyLastFinancialStatement } from './get-company-last-financial-statement.js'
import { organisasjonsnummerForSelskap } from './organisasjonsnummer-for-selskap.js'
import { personinformasjon } from './personinformasjon.js'
import { rollerIEnhet } from './roller-i-enhet.js'
import { selskapetsAksjeposter } from './selskapets-aksjeposter.js'
import { selskapsdetaljer } from './selskapsdetaljer.js'
import { skattefunnprosjekterForSelskap } from './skattefunnprosjekter-for-selskap.js'
import { tildelingerForSelskap } from './tildelinger-for-selskap.js'
import { underenheterForSelskap } from './underenheter-for-selskap.js'
import { kartverketAddressBudget } from '../shared/kartverket-address-budget.js'
import type { RequestBudget } from '../shared/request-budget.js'

/**
 * Firmafakta's operations, keyed as the source's outline reads them, loaded when a request first
 * reads them. The area search keeps its memory of municipalities and addresses per source
 * instance; its calls to Kartverket wait their turn in `kartverketBudget`.
 */
export function firmafaktaOperations(kartverketBudget: RequestBudget = kartverketAddressBudget) {
  const finnSelskaperIOmrade = createFinnSelskaperIOmrade({
    municipalities: createCircleMunicipalities(kartverketBudget),
    geocoder: createAddressGeocoder({ budget: kartverketBudget }),
  })
  return {
    organisasjonsnummerForSelskap,
    personinformasjon,
    selskapsdetaljer,
    rollerIEnhet,
    underenheterForSelskap,
    finnSelskaper,
    finnSelskaperIOmrade,
    getCompanyLastFinancialStatement,
    aksjeeiereForSelskap,
    selskapetsAksjeposter,
    aksjeposterForPerson,
    tildelingerForSelskap,
    euTildelingerForSelskap,
    forskningsradetTildelingerForSelskap,
    skattefunnprosjekterForSelskap,
  }
}
