import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { aksjonaerregisteret } from './datasets/aksjonaerregisteret.js'
import { versionNote } from './dataset-note.js'
import { organizationEntity } from './organization-entity.js'
import { birthYearSchema, personNameSchema } from './person-parameters.js'
import { holdingSchema, holdingsOf, personOwnerKeys, toHolding } from './shareholding.js'

/**
 * `aksjeposter_for_person`: the shares one person owns, found by name and birth year in
 * Aksjonærregisteret (the register identifies people by nothing more).
 *
 * @example
 * const { data } = await aksjeposterForPerson.run({ name: 'Ola Nordmann', birth_year: '1975', limit: 25, offset: 0 }, ctx)
 * data.aksjeposter // the holdings of NORDMANN OLA, born 1975
 */
export const aksjeposterForPerson = defineOperation({
  description:
    "Shares a person owns in Norwegian limited companies, from Skatteetaten's Aksjonærregisteret, found by full name " +
    'and birth year: the name matches in any word order and regardless of case and accents ("Ola Nordmann" finds ' +
    '"NORDMANN OLA"), and every word must be there (middle names too). Namesakes born the same year cannot be told ' +
    'apart; the register publishes no more. Largest holding first. Needs the register loaded.',
  parameters: {
    name: v.pipe(personNameSchema, v.description("The person's full name, in any word order")),
    birth_year: birthYearSchema,
  },
  output: v.object({
    note: v.string(),
    navn: v.nullable(v.string()),
    fodselsaar: v.number(),
    aksjeposter: v.array(holdingSchema),
  }),
  list: 'aksjeposter',
  canonicalFieldAliases: { name: ['navn', 'aksjeposter[].selskap'] },
  datasets: [aksjonaerregisteret],
  async run(params, ctx) {
    const register = ctx.dataset(aksjonaerregisteret)
    const year = Number(params.birth_year)
    const { total, rows } = await holdingsOf(register, personOwnerKeys(params.name, year), params)
    const source = versionNote("Skatteetaten's Aksjonærregisteret", register.version)
    const note =
      total === 0
        ? `${source} The register lists no shares owned by a person named ${params.name} born ${year}.`
        : `${source} ${total} holding${total === 1 ? '' : 's'} of persons named ${params.name} born ${year}; namesakes born the same year cannot be told apart.`
    return {
      data: { note, navn: rows[0]?.eier_navn ?? null, fodselsaar: year, aksjeposter: rows.map(toHolding) },
      page: { hasMore: params.offset + rows.length < total, total },
    }
  },
  entities(data) {
    return data.aksjeposter.map((holding) => organizationEntity(holding.organisasjonsnummer, holding.selskap))
  },
})
