import { deferEntitySearch, deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { brreg } from './brreg-upstream.js'
import { brregRegnskap } from './regnskapsregisteret-upstream.js'
import { firmafaktaDatasets } from './datasets/firmafakta-datasets.js'
import { kartverketAdresser } from '../geonorge/kartverket-upstreams.js'
import type { RequestBudget } from '../shared/request-budget.js'
import { companiesPlaceField } from './place-fields.js'
import { hasDigit } from '../shared/has-digit.js'

/** Options of {@link firmafakta}. */
export interface FirmafaktaOptions {
  /**
   * The request budget the area search's calls to Kartverket's address API wait their turn
   * in. By default one budget of 20 requests per second, shared in the process.
   */
  kartverketBudget?: RequestBudget
}

/**
 * The built-in business-facts source: companies, their details, roles and sub-units from
 * Brønnøysundregistrene's Enhetsregisteret (open data, NLOD 2.0, no key needed), and the
 * companies near a point, placed through Kartverket's address API (CC BY 4.0, no key).
 *
 * @example
 * const gateway = createGateway({ sources: [firmafakta()] })
 * // tests and mirrors point its upstream elsewhere:
 * createGateway({ sources: [firmafakta()], upstreams: { brreg: { baseUrl: 'http://127.0.0.1:8080/enhetsregisteret/api' } } })
 */
export function firmafakta(options: FirmafaktaOptions = {}): SourceDefinition {
  return defineSource({
    id: 'firmafakta',
    name: 'Firmafakta (Brønnøysundregistrene)',
    description:
      'Facts about Norwegian companies and other organisations from Enhetsregisteret at Brønnøysundregistrene: ' +
      'organisation numbers by name, company search by municipality, industry, form and size, the companies near a point ' +
      "(placed through Kartverket's address register), company details, roles (board, chief executive, auditor) and " +
      'sub-units; and the last annual accounts from Regnskapsregisteret.',
    documentation: 'https://data.brreg.no/enhetsregisteret/api/dokumentasjon/no/index.html',
    topic: 'business',
    keywords: [
      'selskap',
      'firma',
      'bedrift',
      'organisasjonsnummer',
      'enhetsregisteret',
      'brønnøysundregistrene',
      'roller',
      'styre',
      'daglig leder',
      'underenheter',
      'company',
      'business register',
      'board',
      'regnskap',
      'årsregnskap',
      'accounts',
      'financial statement',
      'companies nearby',
      'bedrifter i nærheten',
    ],
    synonyms: [
      'brreg',
      'brønnøysund',
      'bronnoysund',
      'foretak',
      'virksomhet',
      'orgnr',
      'org.nr',
      'styreleder',
      'revisor',
      'avdeling',
      'filial',
      'organization number',
      'organisation number',
      'enterprise',
      'firm',
      'board members',
      'chief executive',
      'ceo',
      'auditor',
      'branches',
      'subsidiaries',
    ],
    contentLanguages: ['no'],
    // The register is updated through the day; an hour-old answer is fresh enough for lookups.
    cacheTtlSeconds: 3600,
    limit: { default: 25, max: 100 },
    upstreams: [brreg, brregRegnskap, kartverketAdresser],
    datasets: firmafaktaDatasets,
    entityTypes: {
      organization: { operation: 'selskapsdetaljer', parameter: 'org_nr' },
      // The register has no roles-of-a-person lookup: a person links to the roles of the unit they were found in.
      person: { operation: 'roller_i_enhet', parameter: 'org_nr' },
      // Aksjonærregisteret names an owner by name and birth year: a shareholder links to their holdings.
      shareholder: { operation: 'aksjeposter_for_person', parameter: 'name' },
    },
    // Imported when a search first needs it; only a text with a digit (an organisation number)
    // loads it to be recognized.
    entitySearch: deferEntitySearch(async () => (await import('./entity-search.js')).firmafaktaEntitySearch, {
      mayRecognize: hasDigit,
    }),
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      {
        organisasjonsnummer_for_selskap: 'organisasjonsnummerForSelskap',
        personinformasjon: 'personinformasjon',
        selskapsdetaljer: 'selskapsdetaljer',
        roller_i_enhet: 'rollerIEnhet',
        underenheter_for_selskap: 'underenheterForSelskap',
        finn_selskaper: 'finnSelskaper',
        finn_selskaper_i_omrade: { operation: 'finnSelskaperIOmrade', placeField: companiesPlaceField },
        get_company_last_financial_statement: 'getCompanyLastFinancialStatement',
        aksjeeiere_for_selskap: 'aksjeeiereForSelskap',
        selskapets_aksjeposter: 'selskapetsAksjeposter',
        aksjeposter_for_person: 'aksjeposterForPerson',
        tildelinger_for_selskap: 'tildelingerForSelskap',
        eu_tildelinger_for_selskap: 'euTildelingerForSelskap',
        forskningsradet_tildelinger_for_selskap: 'forskningsradetTildelingerForSelskap',
        skattefunnprosjekter_for_selskap: 'skattefunnprosjekterForSelskap',
      },
      async () => (await import('./operations.js')).firmafaktaOperations(options.kartverketBudget),
    ),
  })
}

export { firmafaktaDatasets } from './datasets/firmafakta-datasets.js'
export { aksjonaerregisteret } from './datasets/aksjonaerregisteret.js'
export { brregRoller } from './datasets/brreg-roller.js'
export { cordis } from './datasets/cordis.js'
export { forskningsradetSoknader } from './datasets/forskningsradet-soknader.js'
export { innovasjonNorgeTildelinger } from './datasets/innovasjon-norge-tildelinger.js'
export { skattefunn } from './datasets/skattefunn.js'
export { orgNrSchema, isValidOrganisationNumber, organisationNumberCheckDigit } from './org-nr.js'
export { brreg } from './brreg-upstream.js'
export { brregRegnskap } from './regnskapsregisteret-upstream.js'
