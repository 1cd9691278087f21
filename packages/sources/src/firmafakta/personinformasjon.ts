import * as v from 'valibot'
import { datasetNotLoaded, defineOperation, GatewayError, loadCommand, type OperationContext } from '@allmenning/core'
import { aksjonaerregisteret } from './datasets/aksjonaerregisteret.js'
import { brregRoller } from './datasets/brreg-roller.js'
import { nameKey } from './datasets/name-key.js'
import { personNameSchema } from './person-parameters.js'
import type { ShareholdingRow } from './shareholding.js'

const itemSchema = v.object({
  navn: v.pipe(v.string(), v.description('The name as the register writes it')),
  organisasjonsnummer: v.pipe(v.string(), v.description('The entity the person has the role in, or owns shares in')),
  bosted: v.pipe(v.nullable(v.string()), v.description('Postcode and place from Aksjonærregisteret; null for roles (Enhetsregisteret publishes no address for persons)')),
  type: v.pipe(v.string(), v.description('The role (Daglig leder, Styreleder, Styremedlem, ...) or "Aksjonær" with the share class')),
  fodselsaar: v.pipe(v.nullable(v.number()), v.description('Birth year; registers publish no more')),
  kilde: v.pipe(v.picklist(['enhetsregisteret', 'aksjonaerregisteret']), v.description('Which register the line comes from')),
})

interface RoleRow {
  organisasjonsnummer: string
  rollegruppe: string | null
  rolle_kode: string | null
  rolle: string | null
  navn: string
  navn_sok: string
  fodselsaar: number | null
}

/** A dataset's reader when it is loaded, `undefined` when it is not (the other may still answer). */
function loaded(ctx: OperationContext, dataset: typeof brregRoller) {
  try {
    return ctx.dataset(dataset)
  } catch (error) {
    if (error instanceof GatewayError && error.code === 'dataset_not_loaded') return undefined
    throw error
  }
}

/**
 * `personinformasjon`: where a person appears in the registers by name: current roles in
 * Enhetsregisteret (from Brønnøysund's roles in bulk) and shareholdings in Aksjonærregisteret.
 *
 * @example
 * const { data } = await personinformasjon.run({ person_name: 'Ola Nordmann', limit: 25, offset: 0 }, ctx)
 * data[0] // { navn: 'Ola Nordmann', organisasjonsnummer: '976030788', bosted: null, type: 'Daglig leder', fodselsaar: 1975, kilde: 'enhetsregisteret' }
 */
export const personinformasjon = defineOperation({
  name: 'personinformasjon',
  description:
    'Where a person appears in the business registers, by name: current roles in Enhetsregisteret (chief executive, board, ' +
    'partners, ...) and shareholdings in Aksjonærregisteret, one line each, with the entity\'s organisation number and the ' +
    'birth year (registers publish no more, and namesakes are told apart by it). The name matches in any word order and ' +
    'regardless of case and accents, every word of it: "Ola Nordmann" finds "NORDMANN OLA" but not "Ola Johan Nordmann". ' +
    'Answers from whichever of the two datasets is loaded.',
  parameters: { person_name: v.pipe(personNameSchema, v.description('The person\'s full name, in any word order')) },
  output: v.array(itemSchema),
  canonicalFieldAliases: { name: ['[].navn'] },
  async run(params, ctx) {
    const roles = loaded(ctx, brregRoller)
    const shares = loaded(ctx, aksjonaerregisteret)
    if (!roles && !shares) {
      const missing = datasetNotLoaded(brregRoller)
      throw new GatewayError(502, 'dataset_not_loaded', `${missing.message}; and Aksjonærregisteret is not loaded either: ${loadCommand(aksjonaerregisteret)}`)
    }
    const key = nameKey(params.person_name)
    const [roleRows, shareRows] = await Promise.all([
      roles ? roles.select<RoleRow>('roller', { where: { navn_sok: key }, orderBy: [{ column: 'fodselsaar' }, { column: 'organisasjonsnummer' }] }) : [],
      shares ? shares.select<ShareholdingRow>('aksjeposter', { where: { eier_sok: { prefix: `${key}|` } }, orderBy: [{ column: 'eier_sok' }, { column: 'selskap_orgnr' }] }) : [],
    ])
    return {
      data: [
        ...roleRows.map((row) => ({
          navn: row.navn,
          organisasjonsnummer: row.organisasjonsnummer,
          bosted: null,
          type: row.rolle ?? row.rolle_kode ?? 'Rolle',
          fodselsaar: row.fodselsaar,
          kilde: 'enhetsregisteret' as const,
        })),
        ...shareRows.map((row) => ({
          navn: row.eier_navn,
          organisasjonsnummer: row.selskap_orgnr,
          bosted: row.postnr_sted,
          type: `Aksjonær (${row.aksjeklasse})`,
          fodselsaar: row.eier_fodselsaar,
          kilde: 'aksjonaerregisteret' as const,
        })),
      ],
    }
  },
  entities(data) {
    return data.map((item) => ({ type: 'organization', id: item.organisasjonsnummer }))
  },
})
