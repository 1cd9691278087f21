import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { skattefunn } from './datasets/skattefunn.js'
import { versionNote } from './dataset-note.js'
import { orgNrSchema } from './org-nr.js'
import { organizationEntity } from './organization-entity.js'

const prosjektSchema = v.object({
  soknadsnummer: v.string(),
  prosjekttittel: v.nullable(v.string()),
  status: v.pipe(
    v.picklist(['godkjent', 'avslått', 'under behandling']),
    v.description('godkjent (approved), avslått (rejected) or under behandling'),
  ),
  innsendt: v.pipe(v.nullable(v.string()), v.description('Date the application was sent, YYYY-MM-DD')),
  fra: v.pipe(v.nullable(v.string()), v.description('Project start: a date, or a year in the historical file')),
  til: v.nullable(v.string()),
  vedtaksdato: v.nullable(v.string()),
  fylke: v.nullable(v.string()),
  kommune: v.nullable(v.string()),
  sammendrag: v.nullable(v.string()),
})

type ProjectRow = v.InferOutput<typeof prosjektSchema> & { organisasjonsnummer: string; bedrift: string }

/**
 * `skattefunnprosjekter_for_selskap`: a company's SkatteFUNN applications (the R&D tax
 * incentive), approved and rejected, newest first.
 *
 * @example
 * const { data } = await skattefunnprosjekterForSelskap.run({ org_nr: '976030788', limit: 25, offset: 0 }, ctx)
 * data.godkjente // 2
 */
export const skattefunnprosjekterForSelskap = defineOperation({
  description:
    "The company's applications for SkatteFUNN, the R&D tax incentive, since 2002: approved, rejected and pending, newest " +
    "first, with how many were approved. From the Research Council's two published workbooks (2002–2024 and the rolling " +
    'one), the rolling one winning where they overlap.',
  parameters: { org_nr: orgNrSchema },
  output: v.object({
    note: v.string(),
    organisasjonsnummer: v.string(),
    bedrift: v.nullable(v.string()),
    antall: v.number(),
    godkjente: v.pipe(v.number(), v.description('Applications approved')),
    prosjekter: v.array(prosjektSchema),
  }),
  list: 'prosjekter',
  canonicalFieldAliases: { name: ['bedrift', 'prosjekter[].prosjekttittel'], timestamp: ['prosjekter[].innsendt'] },
  shapeNote:
    'Spec 4.6 leaves the shape open beyond an object or a list; this is an object with the list in prosjekter.',
  datasets: [skattefunn],
  async run(params, ctx) {
    const applications = ctx.dataset(skattefunn)
    const rows = await applications.select<ProjectRow>('soknader', {
      where: { organisasjonsnummer: params.org_nr },
      orderBy: [
        { column: 'innsendt', direction: 'desc' },
        { column: 'soknadsnummer', direction: 'desc' },
      ],
    })
    return {
      data: {
        note: `${versionNote("SkatteFUNN's published applications", applications.version)} Newest first; approved and rejected applications alike.`,
        organisasjonsnummer: params.org_nr,
        bedrift: rows[0]?.bedrift ?? null,
        antall: rows.length,
        godkjente: rows.filter((row) => row.status === 'godkjent').length,
        prosjekter: rows.map(({ organisasjonsnummer: _o, bedrift: _b, ...row }) => row),
      },
    }
  },
  entities(data) {
    return [organizationEntity(data.organisasjonsnummer, data.bedrift)]
  },
})
