import * as v from 'valibot'
import { DatasetRowError, type DatasetContent, type DatasetRowOutput } from '@allmenning/core/source'
import { nameWords, personSearchKey } from './name-key.js'

const text = v.nullish(v.string())
const code = v.nullish(v.object({ kode: text, beskrivelse: text }))

/** One element of the roles file: an entity and its role groups, as far as this dataset reads it. */
const entitySchema = v.object({
  organisasjonsnummer: v.string(),
  rollegrupper: v.optional(
    v.array(
      v.object({
        type: code,
        roller: v.optional(
          v.array(
            v.object({
              type: code,
              person: v.nullish(
                v.object({
                  fodselsdato: text,
                  navn: v.nullish(v.object({ fornavn: text, mellomnavn: text, etternavn: text })),
                  erDoed: v.nullish(v.boolean()),
                }),
              ),
              fratraadt: v.nullish(v.boolean()),
              avregistrert: v.nullish(v.boolean()),
            }),
          ),
        ),
      }),
    ),
  ),
})

/**
 * How the roles file is read: one gzip'd JSON array of about 130 MB, streamed one entity at a
 * time. Only roles held by living persons that are current (not resigned, not deregistered)
 * are kept; of a birth date only the year is stored.
 */
export const brregRollerContent: DatasetContent = {
  format: { type: 'json-array' },
  rows: () => (element: unknown) => {
    const parsed = v.safeParse(entitySchema, element)
    if (!parsed.success)
      throw new DatasetRowError(`is not an entity with roles: ${parsed.issues[0]?.message ?? 'unexpected shape'}`)
    const entity = parsed.output
    if (!/^\d{9}$/.test(entity.organisasjonsnummer))
      throw new DatasetRowError(`organisasjonsnummer "${entity.organisasjonsnummer}" is not 9 digits`)
    const rows: DatasetRowOutput[] = []
    for (const group of entity.rollegrupper ?? []) {
      for (const role of group.roller ?? []) {
        const person = role.person
        if (!person || role.fratraadt || role.avregistrert || person.erDoed) continue
        const name = [person.navn?.fornavn, person.navn?.mellomnavn, person.navn?.etternavn]
          .filter((part) => part && part.trim() !== '')
          .join(' ')
        if (name === '') continue
        const year = /^(\d{4})-/.exec(person.fodselsdato ?? '')?.[1]
        rows.push({
          table: 'roller',
          row: {
            organisasjonsnummer: entity.organisasjonsnummer,
            rollegruppe: group.type?.beskrivelse ?? group.type?.kode ?? null,
            rolle_kode: role.type?.kode ?? null,
            rolle: role.type?.beskrivelse ?? role.type?.kode ?? null,
            navn: name,
            navn_nokkel: personSearchKey(nameWords(person.navn?.etternavn ?? '')[0] ?? nameWords(name)[0] ?? '', name),
            fodselsaar: year ? Number(year) : null,
          },
        })
      }
    }
    return rows
  },
}
