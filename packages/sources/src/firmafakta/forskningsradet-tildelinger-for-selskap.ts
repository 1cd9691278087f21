import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { forskningsradetSoknader } from './datasets/forskningsradet-soknader.js'
import { versionNote } from './dataset-note.js'
import { orgNrSchema } from './org-nr.js'
import { organizationEntity } from './organization-entity.js'

interface SoknadRow {
  prosjektnummer: string
  organisasjonsnummer: string
  prosjektansvarlig: string | null
  prosjekttittel: string | null
  prosjekttype: string | null
  prosjektfase: string | null
  soknadsdato: string | null
  prosjektstart: string | null
  prosjektslutt: string | null
  sektor: string | null
  virkemiddel: string | null
  utlysning: string | null
  fagomraade: string | null
  sokt_belop: number | null
  tildelt_belop: number | null
}

// The phases of an application that received money (Bevilgning: granted; Avsluttet: finished).
const granted = ['Bevilgning', 'Avsluttet']

const prosjektSchema = v.object({
  prosjektnummer: v.string(),
  prosjekttittel: v.nullable(v.string()),
  prosjektfase: v.pipe(v.nullable(v.string()), v.description('Bevilgning (granted, running) or Avsluttet (finished)')),
  prosjekttype: v.nullable(v.string()),
  virkemiddel: v.nullable(v.string()),
  utlysning: v.nullable(v.string()),
  fagomraade: v.nullable(v.string()),
  soknadsdato: v.nullable(v.string()),
  prosjektstart: v.nullable(v.string()),
  prosjektslutt: v.nullable(v.string()),
  tildelt_belop: v.pipe(v.nullable(v.number()), v.description('Amount granted, NOK')),
  sokt_belop: v.nullable(v.number()),
  url: v.pipe(v.string(), v.description("The project in Forskningsrådet's Prosjektbanken")),
})

/**
 * `forskningsradet_tildelinger_for_selskap`: the Research Council's grants to one organisation,
 * newest application first, with the sum granted.
 *
 * @example
 * const { data } = await forskningsradetTildelingerForSelskap.run({ org_nr: '912345645', limit: 25, offset: 0 }, ctx)
 * data.prosjekter[0]?.url // 'https://prosjektbanken.forskningsradet.no/project/FORISS/101367'
 */
export const forskningsradetTildelingerForSelskap = defineOperation({
  description:
    'Grants from the Research Council of Norway (Forskningsrådet) to the organisation as project owner: projects whose ' +
    'application was granted (phase Bevilgning or Avsluttet), newest application first, with the sum granted and a link ' +
    "to each project in Prosjektbanken. From the council's open application data (soknader2), which lacks applications " +
    'made in its newer Tibi system from about 2022–23.',
  parameters: { org_nr: orgNrSchema },
  output: v.object({
    note: v.string(),
    organisasjonsnummer: v.string(),
    prosjektansvarlig: v.nullable(v.string()),
    antall: v.number(),
    sum_tildelt: v.pipe(v.number(), v.description('Sum granted over every project, NOK')),
    prosjekter: v.array(prosjektSchema),
  }),
  list: 'prosjekter',
  canonicalFieldAliases: {
    name: ['prosjektansvarlig', 'prosjekter[].prosjekttittel'],
    timestamp: ['prosjekter[].soknadsdato'],
  },
  datasets: [forskningsradetSoknader],
  async run(params, ctx) {
    const applications = ctx.dataset(forskningsradetSoknader)
    const rows = await applications.select<SoknadRow>('soknader', {
      where: { organisasjonsnummer: params.org_nr, prosjektfase: { in: granted } },
      orderBy: [
        { column: 'soknadsdato', direction: 'desc' },
        { column: 'prosjektnummer', direction: 'desc' },
      ],
    })
    const sum = Math.round(rows.reduce((total, row) => total + (row.tildelt_belop ?? 0), 0))
    const note =
      `${versionNote("Forskningsrådet's open application data (soknader2)", applications.version)} ` +
      "Applications made in the council's Tibi system (from about 2022–23) are not in it, so recent grants may be missing."
    return {
      data: {
        note,
        organisasjonsnummer: params.org_nr,
        prosjektansvarlig: rows[0]?.prosjektansvarlig ?? null,
        antall: rows.length,
        sum_tildelt: sum,
        prosjekter: rows.map((row) => ({
          prosjektnummer: row.prosjektnummer,
          prosjekttittel: row.prosjekttittel,
          prosjektfase: row.prosjektfase,
          prosjekttype: row.prosjekttype,
          virkemiddel: row.virkemiddel,
          utlysning: row.utlysning,
          fagomraade: row.fagomraade,
          soknadsdato: row.soknadsdato,
          prosjektstart: row.prosjektstart,
          prosjektslutt: row.prosjektslutt,
          tildelt_belop: row.tildelt_belop,
          sokt_belop: row.sokt_belop,
          url: `https://prosjektbanken.forskningsradet.no/project/FORISS/${encodeURIComponent(row.prosjektnummer)}`,
        })),
      },
    }
  },
  entities(data) {
    return [organizationEntity(data.organisasjonsnummer, data.prosjektansvarlig)]
  },
})
