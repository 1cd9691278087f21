import { aksjeeiereForSelskap } from './aksjeeiere-for-selskap.js'
import { aksjeposterForPerson } from './aksjeposter-for-person.js'
import { euTildelingerForSelskap } from './eu-tildelinger-for-selskap.js'
import { finnSelskaper } from './finn-selskaper.js'
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

/** Firmafakta's operations, in the order of the source's outline: loaded when a request first reads them. */
export const firmafaktaOperations = [
  organisasjonsnummerForSelskap,
  personinformasjon,
  selskapsdetaljer,
  rollerIEnhet,
  underenheterForSelskap,
  finnSelskaper,
  getCompanyLastFinancialStatement,
  aksjeeiereForSelskap,
  selskapetsAksjeposter,
  aksjeposterForPerson,
  tildelingerForSelskap,
  euTildelingerForSelskap,
  forskningsradetTildelingerForSelskap,
  skattefunnprosjekterForSelskap,
]
