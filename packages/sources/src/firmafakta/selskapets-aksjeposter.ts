import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { aksjonaerregisteret } from './datasets/aksjonaerregisteret.js'
import { versionNote } from './dataset-note.js'
import { orgNrSchema } from './org-nr.js'
import { organizationEntity } from './organization-entity.js'
import { holdingSchema, holdingsOf, toHolding } from './shareholding.js'

/**
 * `selskapets_aksjeposter`: the shares a company owns in other Norwegian limited companies,
 * from Aksjonærregisteret, largest holding first.
 *
 * @example
 * const { data } = await selskapetsAksjeposter.run({ org_nr: '923609016', limit: 25, offset: 0 }, ctx)
 * data.aksjeposter[0] // { organisasjonsnummer: '…', selskap: '…', aksjeklasse: 'Ordinære aksjer', antall_aksjer: 1000, ... }
 */
export const selskapetsAksjeposter = defineOperation({
  description:
    "Shares the company owns in Norwegian limited companies (it is the shareholder), from Skatteetaten's " +
    "Aksjonærregisteret at the end of the year it covers, largest holding first, with each holding's share of its " +
    'class. Needs the register loaded (`allmenning datasets import aksjonaerregisteret <file>`).',
  parameters: { org_nr: orgNrSchema },
  output: v.object({ note: v.string(), organisasjonsnummer: v.string(), aksjeposter: v.array(holdingSchema) }),
  list: 'aksjeposter',
  canonicalFieldAliases: { name: ['aksjeposter[].selskap'] },
  datasets: [aksjonaerregisteret],
  async run(params, ctx) {
    const register = ctx.dataset(aksjonaerregisteret)
    const { total, rows } = await holdingsOf(register, params.org_nr, params)
    const source = versionNote("Skatteetaten's Aksjonærregisteret", register.version)
    const note =
      total === 0
        ? `${source} The register lists no shares owned by ${params.org_nr}.`
        : `${source} ${total} holding${total === 1 ? '' : 's'} in all, largest first.`
    return {
      data: { note, organisasjonsnummer: params.org_nr, aksjeposter: rows.map(toHolding) },
      page: { hasMore: params.offset + rows.length < total, total },
    }
  },
  entities(data) {
    return [
      organizationEntity(data.organisasjonsnummer),
      ...data.aksjeposter.map((holding) => organizationEntity(holding.organisasjonsnummer, holding.selskap)),
    ]
  },
})
