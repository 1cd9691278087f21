import { GatewayError } from '@allmenning/core'
import { checkUpstreamShape, defineOperation } from '@allmenning/core/source'
import { orgNrSchema } from './org-nr.js'
import { organizationEntity } from './organization-entity.js'
import { regnskapListSchema } from './regnskap-payloads.js'
import { latestStatement, regnskapsdataSchema, toRegnskapsdata } from './regnskap-mapping.js'
import { brregRegnskap } from './regnskapsregisteret-upstream.js'

/**
 * `get_company_last_financial_statement`: key figures of a company's last approved annual
 * accounts from Regnskapsregisteret, with the currency they are in. A company with no
 * statement (a 404 or an empty list from the register, which answers both) is a 404.
 *
 * @example
 * const { data } = await getCompanyLastFinancialStatement.run({ org_nr: '976030788', limit: 25, offset: 0 }, ctx)
 * data.valuta // 'NOK'
 */
export const getCompanyLastFinancialStatement = defineOperation({
  description:
    "Key figures of a company's last approved annual accounts in Regnskapsregisteret (from 2018 on; not banks or " +
    'insurers): income statement and balance sheet, in the currency filed (valuta, not always NOK). A line the ' +
    'accounts do not have is null. A company with no accounts on file is a 404.',
  parameters: { org_nr: orgNrSchema },
  output: regnskapsdataSchema,
  shapeNote: "Regnskapsregisteret's own field names, spelt right and flattened into resultatregnskap and balanse.",
  // Accounts are filed once a year: a day-old answer is as good as a fresh one.
  cacheTtlSeconds: 86_400,
  // Reads no dataset, so an import leaves its cached answers alone.
  datasets: [],
  async run(params, ctx) {
    const client = ctx.upstream(brregRegnskap)
    const res = await client.getJson(`/${params.org_nr}`, {
      headers: { accept: 'application/json' },
      acceptStatus: [404],
    })
    const statements =
      res.status === 404 ? [] : checkUpstreamShape(client, regnskapListSchema, res.body, 'the financial statements')
    const statement = latestStatement(statements)
    if (!statement) {
      throw new GatewayError(
        404,
        'entity_not_found',
        `No financial statement for organisation number ${params.org_nr} in Regnskapsregisteret`,
      )
    }
    return { data: toRegnskapsdata(statement, params.org_nr), sourceApi: res.url }
  },
  entities: (data) => [organizationEntity(data.organisasjonsnummer)],
})
