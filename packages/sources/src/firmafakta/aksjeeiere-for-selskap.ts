import * as v from 'valibot'
import { defineOperation, type EntityInput } from '@allmenning/core/source'
import { aksjonaerregisteret } from './datasets/aksjonaerregisteret.js'
import { versionNote } from './dataset-note.js'
import { orgNrSchema } from './org-nr.js'
import { organizationEntity } from './organization-entity.js'
import { personEntityId } from './person-id.js'
import { shareholderSchema, toShareholder, type ShareholdingRow } from './shareholding.js'

/**
 * `aksjeeiere_for_selskap`: the shareholders of one company from Skatteetaten's
 * Aksjonærregisteret, largest holding first. Paged in the store, so a listed company with
 * tens of thousands of holders costs no more than a small one.
 *
 * @example
 * const { data } = await aksjeeiereForSelskap.run({ org_nr: '923609016', limit: 100, offset: 0 }, ctx)
 * data.shareholders[0] // { navn: 'STATEN V/NÆRINGS- OG FISKERIDEPARTEMENTET', type: 'selskap', antall_aksjer: ..., andel_prosent: 67 }
 */
export const aksjeeiereForSelskap = defineOperation({
  description:
    "Shareholders of a Norwegian limited company (AS, ASA) at the end of the year Skatteetaten's Aksjonærregisteret " +
    'covers, largest holding first. A person is given with birth year only, as the register publishes ' +
    'them; a company with its organisation number. Rows the register repeats are summed. Needs the register loaded: ' +
    'it is ordered from Skatteetaten and imported with `allmenning datasets import aksjonaerregisteret <file>`.',
  parameters: { org_nr: orgNrSchema },
  // Listed companies have tens of thousands of small holders (spec 4.4).
  limit: { default: 100, max: 1000 },
  output: v.object({
    note: v.string(),
    organisasjonsnummer: v.string(),
    selskap: v.nullable(v.string()),
    shareholders: v.array(shareholderSchema),
  }),
  list: 'shareholders',
  canonicalFieldAliases: { name: ['shareholders[].navn', 'selskap'] },
  shapeNote: "data is {note, shareholders} as spec 2.4 gives it, with the company's number and name beside them.",
  datasets: [aksjonaerregisteret],
  async run(params, ctx) {
    const register = ctx.dataset(aksjonaerregisteret)
    const where = { selskap_orgnr: params.org_nr }
    const [total, rows] = await Promise.all([
      register.count('aksjeposter', where),
      register.select<ShareholdingRow>('aksjeposter', {
        where,
        // Holding size alone: the index on (company, shares) then yields the page with no sort,
        // ties in the register's own order, which stays the same for a loaded version.
        orderBy: [{ column: 'antall_aksjer', direction: 'desc' }],
        limit: params.limit,
        offset: params.offset,
      }),
    ])
    const first =
      rows[0] ??
      (total > 0 ? (await register.select<ShareholdingRow>('aksjeposter', { where, limit: 1 }))[0] : undefined)
    const source = versionNote("Skatteetaten's Aksjonærregisteret", register.version)
    const note =
      total === 0
        ? `${source} The register lists no shareholders of ${params.org_nr}: it holds limited companies (AS, ASA) only.`
        : `${source} ${total} holding${total === 1 ? '' : 's'} in all, largest first; a person is identified by name and birth year only.`
    return {
      data: {
        note,
        organisasjonsnummer: params.org_nr,
        selskap: first?.selskap ?? null,
        shareholders: rows.map(toShareholder),
      },
      page: { hasMore: params.offset + rows.length < total, total },
    }
  },
  entities(data) {
    const entities: EntityInput[] = [organizationEntity(data.organisasjonsnummer, data.selskap)]
    for (const holder of data.shareholders) {
      if (holder.type === 'selskap' && holder.organisasjonsnummer)
        entities.push(organizationEntity(holder.organisasjonsnummer, holder.navn))
      else if (holder.type === 'person' && holder.fodselsaar !== null) {
        entities.push({
          type: 'shareholder',
          id: personEntityId(holder.navn, holder.fodselsaar),
          name: holder.navn,
          linkParameters: { name: holder.navn, birth_year: String(holder.fodselsaar) },
        })
      }
    }
    return entities
  },
})
