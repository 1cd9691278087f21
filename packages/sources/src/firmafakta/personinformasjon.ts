import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import {
  defineOperation,
  isDatasetNotLoaded,
  rankByName,
  type DatasetCondition,
  type DatasetReader,
  type OperationContext,
} from '@allmenning/core/source'
import { aksjonaerregisteret } from './datasets/aksjonaerregisteret.js'
import { brregRoller } from './datasets/brreg-roller.js'
import { keyWords, nameKey, nameWords } from './datasets/name-key.js'
import { personNameSchema } from './person-parameters.js'
import { ownerOf, type ShareholdingRow } from './shareholding.js'

const itemSchema = v.object({
  navn: v.pipe(v.string(), v.description('The name as the register writes it')),
  organisasjonsnummer: v.pipe(v.string(), v.description('The entity the person has the role in, or owns shares in')),
  bosted: v.pipe(
    v.nullable(v.string()),
    v.description(
      'Postcode and place from Aksjonærregisteret; null for roles (Enhetsregisteret publishes no address for persons)',
    ),
  ),
  type: v.pipe(
    v.string(),
    v.description('The role (Daglig leder, Styreleder, Styremedlem, ...) or "Aksjonær" with the share class'),
  ),
  fodselsaar: v.pipe(v.nullable(v.number()), v.description('Birth year; registers publish no more')),
  kilde: v.pipe(
    v.picklist(['enhetsregisteret', 'aksjonaerregisteret']),
    v.description('Which register the line comes from'),
  ),
})

interface RoleRow {
  organisasjonsnummer: string
  rollegruppe: string | null
  rolle_kode: string | null
  rolle: string | null
  navn: string
  navn_nokkel: string
  fodselsaar: number | null
}

type Item = v.InferOutput<typeof itemSchema>

/** People read per surname and register for partial matches: bounded for a common surname alone. The whole name is always read whole. */
const perSurname = 1000
/** Words of a name tried as its surname. */
const surnamesTried = 6

/** Whether a stored search key holds every one of `words`. */
function holdsAll(key: string, words: readonly string[]): boolean {
  const stored = keyWords(key)
  return words.every((word) => stored.includes(word))
}

/** The name with its first word moved last, or its last first: the other order registers and users write names in. */
function otherOrder(name: string, surnameFirst: boolean): string {
  const words = name.trim().split(/\s+/)
  if (words.length < 2) return name
  return surnameFirst ? [...words.slice(1), words[0]].join(' ') : [words.at(-1), ...words.slice(0, -1)].join(' ')
}

/** A dataset's reader when it is loaded, `undefined` when it is not (the other may still answer). */
/** The dataset's reader, or the `dataset_not_loaded` error that says how to load it. */
function loaded(ctx: OperationContext, dataset: typeof brregRoller): DatasetReader | GatewayError {
  try {
    return ctx.dataset(dataset)
  } catch (error) {
    if (isDatasetNotLoaded(error)) return error
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
  description:
    'Where a person appears in the business registers, by name: current roles in Enhetsregisteret (chief executive, board, ' +
    "partners, ...) and shareholdings in Aksjonærregisteret, one line each, with the entity's organisation number and the " +
    'birth year (registers publish no more, and namesakes are told apart by it). The name matches in any word order and ' +
    'regardless of case and accents. The whole name comes first ("Ola Nordmann" finds "NORDMANN OLA"), then people whose ' +
    'name holds every word given: first and last name without the middle name ("Ola Nordmann" also finds "Ola Johan ' +
    'Nordmann"), or a surname alone. One of the words must be the surname; for partial matches at most 1,000 people per surname and register ' +
    'are considered. Answers from whichever of the two datasets is loaded.',
  parameters: {
    person_name: v.pipe(
      personNameSchema,
      v.description("The person's name, whole or in part (a surname alone), in any word order"),
    ),
  },
  output: v.array(itemSchema),
  canonicalFieldAliases: { name: ['[].navn'] },
  datasets: [aksjonaerregisteret, brregRoller],
  async run(params, ctx) {
    const rolesOrMissing = loaded(ctx, brregRoller)
    const sharesOrMissing = loaded(ctx, aksjonaerregisteret)
    if (rolesOrMissing instanceof GatewayError && sharesOrMissing instanceof GatewayError) {
      const either = `${rolesOrMissing.message}; and Aksjonærregisteret is not loaded either: ${sharesOrMissing.configure}`
      throw new GatewayError(502, 'dataset_not_loaded', either, {
        ...(rolesOrMissing.configure === undefined ? {} : { configure: rolesOrMissing.configure }),
      })
    }
    const roles = rolesOrMissing instanceof GatewayError ? undefined : rolesOrMissing
    const shares = sharesOrMissing instanceof GatewayError ? undefined : sharesOrMissing
    const words = [...new Set(nameWords(params.person_name))]
    const whole = nameKey(params.person_name)
    const surnames = words.slice(0, surnamesTried)
    // Through the index on `surname|name key`, for each word that may be the surname: the whole
    // name (every row of it), then everyone with that surname (up to `perSurname`), among whom
    // the names holding every word given are partial matches.
    const bySurname = async <Row>(
      reader: DatasetReader | undefined,
      table: string,
      column: string,
      orderBy: string[],
      key: (surname: string) => DatasetCondition,
      limit?: number,
    ) =>
      reader
        ? (
            await Promise.all(
              surnames.map((surname) =>
                reader.select<Row>(table, {
                  where: { [column]: key(surname) },
                  orderBy: orderBy.map((by) => ({ column: by })),
                  ...(limit ? { limit } : {}),
                }),
              ),
            )
          ).flat()
        : []
    const roleOrder = ['navn_nokkel', 'fodselsaar', 'organisasjonsnummer']
    const shareOrder = ['eier_nokkel', 'selskap_orgnr']
    const everyone = (surname: string) => ({ prefix: `${surname}|` })
    const partial = (key: string | null) => key !== null && holdsAll(key, words) && keyWords(key).join(' ') !== whole
    const [wholeRoles, wholeShares, someRoles, someShares] = await Promise.all([
      bySurname<RoleRow>(roles, 'roller', 'navn_nokkel', roleOrder, (surname) => `${surname}|${whole}`),
      bySurname<ShareholdingRow>(shares, 'aksjeposter', 'eier_nokkel', shareOrder, (surname) => ({
        prefix: `${surname}|${whole}|`,
      })),
      bySurname<RoleRow>(roles, 'roller', 'navn_nokkel', roleOrder, everyone, perSurname),
      bySurname<ShareholdingRow>(shares, 'aksjeposter', 'eier_nokkel', shareOrder, everyone, perSurname),
    ])
    const roleRowsFound = [...wholeRoles, ...someRoles.filter((row) => partial(row.navn_nokkel))]
    const shareRowsFound = [...wholeShares, ...someShares.filter((row) => partial(row.eier_nokkel))]
    const items: Array<{ item: Item; other: string }> = [
      ...roleRowsFound.map((row) => ({
        item: {
          navn: row.navn,
          organisasjonsnummer: row.organisasjonsnummer,
          bosted: null,
          type: row.rolle ?? row.rolle_kode ?? 'Rolle',
          fodselsaar: row.fodselsaar,
          kilde: 'enhetsregisteret' as const,
        },
        // Enhetsregisteret writes first names first.
        other: otherOrder(row.navn, false),
      })),
      ...shareRowsFound.map((row) => ({
        item: {
          navn: row.eier_navn,
          organisasjonsnummer: row.selskap_orgnr,
          bosted: row.postnr_sted,
          type: `Aksjonær (${row.aksjeklasse})`,
          fodselsaar: ownerOf(row).birthYear,
          kilde: 'aksjonaerregisteret' as const,
        },
        // Aksjonærregisteret writes the surname first.
        other: otherOrder(row.eier_navn, true),
      })),
    ]
    // The whole name, in either order, first; then the partial matches, by the core's ranking.
    const ranked = rankByName(params.person_name, items, ({ item, other }) => ({ names: [item.navn, other] }))
    return { data: ranked.map(({ item }) => item.item) }
  },
  entities(data) {
    return data.map((item) => ({ type: 'organization', id: item.organisasjonsnummer }))
  },
})
