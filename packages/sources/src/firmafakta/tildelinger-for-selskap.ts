import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { innovasjonNorgeTildelinger } from './datasets/innovasjon-norge-tildelinger.js'
import { versionNote } from './dataset-note.js'
import { orgNrSchema } from './org-nr.js'
import { organizationEntity } from './organization-entity.js'

interface TildelingRow {
  organisasjonsnummer: string
  bedriftsnavn: string
  fylke: string | null
  kommune: string | null
  virkemiddelkategori: string | null
  underkategori: string | null
  belop: number | null
  dato: string | null
  beslutningsenhet: string | null
  naeringshovedomraade: string | null
  naering: string | null
  type_finansiering: string | null
}

const tildelingSchema = v.object({
  dato: v.pipe(v.nullable(v.string()), v.description('Date awarded, YYYY-MM-DD')),
  belop: v.pipe(v.nullable(v.number()), v.description('Amount awarded, NOK')),
  virkemiddelkategori: v.nullable(v.string()),
  underkategori: v.nullable(v.string()),
  type_finansiering: v.pipe(
    v.nullable(v.string()),
    v.description('Grant, loan or guarantee, as Innovasjon Norge names it'),
  ),
  beslutningsenhet: v.nullable(v.string()),
  bedriftsnavn: v.string(),
  fylke: v.nullable(v.string()),
  kommune: v.nullable(v.string()),
  naeringshovedomraade: v.nullable(v.string()),
  naering: v.nullable(v.string()),
})

/**
 * `tildelinger_for_selskap`: what Innovasjon Norge has awarded one company, newest first,
 * with the sum of every award.
 *
 * @example
 * const { data } = await tildelingerForSelskap.run({ org_nr: '976030788', limit: 25, offset: 0 }, ctx)
 * data.sum_belop // 1500000
 */
export const tildelingerForSelskap = defineOperation({
  description:
    'Grants, loans and guarantees Innovasjon Norge has awarded the company since 2013, newest first, with the sum of all ' +
    "of them, from Innovasjon Norge's nightly allocation report (loaded with `allmenning datasets sync innovasjon_norge_tildelinger`).",
  parameters: { org_nr: orgNrSchema },
  output: v.object({
    note: v.string(),
    organisasjonsnummer: v.string(),
    antall: v.pipe(v.number(), v.description('Awards in all')),
    sum_belop: v.pipe(v.number(), v.description('Sum of every award, NOK')),
    tildelinger: v.array(tildelingSchema),
  }),
  list: 'tildelinger',
  canonicalFieldAliases: { name: ['tildelinger[].bedriftsnavn'], timestamp: ['tildelinger[].dato'] },
  datasets: [innovasjonNorgeTildelinger],
  async run(params, ctx) {
    const report = ctx.dataset(innovasjonNorgeTildelinger)
    // A company has at most some hundreds of awards: read them all for the sum, and let the core page.
    const rows = await report.select<TildelingRow>('tildelinger', {
      where: { organisasjonsnummer: params.org_nr },
      orderBy: [
        { column: 'dato', direction: 'desc' },
        { column: 'belop', direction: 'desc' },
      ],
    })
    const sum = Math.round(rows.reduce((total, row) => total + (row.belop ?? 0), 0) * 100) / 100
    const note = `${versionNote("Innovasjon Norge's allocation report", report.version)} ${rows.length === 0 ? `No awards to ${params.org_nr} since 2013.` : 'Newest first; amounts in NOK.'}`
    const tildelinger = rows.map(({ organisasjonsnummer: _, ...row }) => row)
    return { data: { note, organisasjonsnummer: params.org_nr, antall: rows.length, sum_belop: sum, tildelinger } }
  },
  entities(data) {
    return [organizationEntity(data.organisasjonsnummer, data.tildelinger[0]?.bedriftsnavn)]
  },
})
