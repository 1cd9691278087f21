import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { cordis } from './datasets/cordis.js'
import { versionNote } from './dataset-note.js'
import { orgNrSchema } from './org-nr.js'
import { organizationEntity } from './organization-entity.js'

interface ParticipantRow {
  prosjekt_id: string
  pic: string | null
  organisasjonsnummer: string | null
  mva_nummer: string | null
  navn: string
  rolle: string | null
  eu_bidrag: number | null
  netto_eu_bidrag: number | null
  total_kostnad: number | null
  sme: number
}

interface ProjectRow {
  prosjekt_id: string
  rammeprogram: string
  akronym: string | null
  tittel: string
  status: string | null
  start: string | null
  slutt: string | null
  total_kostnad: number | null
  eu_bidrag_maks: number | null
  finansieringsordning: string | null
}

const deltakelseSchema = v.object({
  prosjekt_id: v.string(),
  rammeprogram: v.pipe(v.string(), v.description('HORIZON (Horizon Europe) or H2020 (Horizon 2020)')),
  akronym: v.nullable(v.string()),
  tittel: v.nullable(v.string()),
  status: v.nullable(v.string()),
  start: v.nullable(v.string()),
  slutt: v.nullable(v.string()),
  rolle: v.pipe(v.nullable(v.string()), v.description('coordinator, participant, thirdParty or associatedPartner')),
  eu_bidrag: v.pipe(v.nullable(v.number()), v.description('The EU contribution to this organisation, EUR')),
  netto_eu_bidrag: v.nullable(v.number()),
  prosjekt_total_kostnad: v.nullable(v.number()),
  url: v.string(),
})

/**
 * `eu_tildelinger_for_selskap`: EU research and innovation grants (Horizon Europe, Horizon
 * 2020) to one Norwegian organisation, from CORDIS, newest project first.
 *
 * @example
 * const { data } = await euTildelingerForSelskap.run({ org_nr: '974760843', limit: 25, offset: 0 }, ctx)
 * data.sum_eu_bidrag // 1234567.89
 */
export const euTildelingerForSelskap = defineOperation({
  description:
    'EU research and innovation projects (Horizon Europe and Horizon 2020) the organisation takes part in, from CORDIS: ' +
    'its role and EU contribution in each, newest project first, with the sum of contributions in EUR. Matched on the ' +
    'VAT number NO<org_nr>MVA, and for participations registered without one, on the EU participant code (PIC) the ' +
    'organisation uses elsewhere.',
  parameters: { org_nr: orgNrSchema },
  output: v.object({
    note: v.string(),
    organisasjonsnummer: v.string(),
    navn: v.nullable(v.string()),
    antall: v.number(),
    sum_eu_bidrag: v.pipe(v.number(), v.description('Sum of EU contributions, EUR')),
    prosjekter: v.array(deltakelseSchema),
  }),
  list: 'prosjekter',
  canonicalFieldAliases: { name: ['navn', 'prosjekter[].tittel'], timestamp: ['prosjekter[].start'] },
  datasets: [cordis],
  async run(params, ctx) {
    const data = ctx.dataset(cordis)
    const byNumber = await data.select<ParticipantRow>('deltakere', { where: { organisasjonsnummer: params.org_nr } })
    const pics = [...new Set(byNumber.map((row) => row.pic).filter((pic): pic is string => pic !== null))]
    const byPic =
      pics.length > 0
        ? await data.select<ParticipantRow>('deltakere', { where: { pic: { in: pics }, organisasjonsnummer: null } })
        : []
    const participations = [...byNumber, ...byPic]
    const projectIds = [...new Set(participations.map((row) => row.prosjekt_id))]
    const projects = new Map(
      (projectIds.length > 0
        ? await data.select<ProjectRow>('prosjekter', { where: { prosjekt_id: { in: projectIds } } })
        : []
      ).map((p) => [p.prosjekt_id, p]),
    )
    const prosjekter = participations
      .map((row) => {
        const project = projects.get(row.prosjekt_id)
        return {
          prosjekt_id: row.prosjekt_id,
          rammeprogram: project?.rammeprogram ?? 'unknown',
          akronym: project?.akronym ?? null,
          tittel: project?.tittel ?? null,
          status: project?.status ?? null,
          start: project?.start ?? null,
          slutt: project?.slutt ?? null,
          rolle: row.rolle,
          eu_bidrag: row.eu_bidrag,
          netto_eu_bidrag: row.netto_eu_bidrag,
          prosjekt_total_kostnad: project?.total_kostnad ?? null,
          url: `https://cordis.europa.eu/project/id/${row.prosjekt_id}`,
        }
      })
      .sort((a, b) => (b.start ?? '').localeCompare(a.start ?? '') || b.prosjekt_id.localeCompare(a.prosjekt_id))
    const sum = Math.round(prosjekter.reduce((total, p) => total + (p.eu_bidrag ?? 0), 0) * 100) / 100
    return {
      data: {
        note: `${versionNote('CORDIS (Horizon Europe and Horizon 2020)', data.version)} Newest project first; amounts in EUR.`,
        organisasjonsnummer: params.org_nr,
        navn: byNumber[0]?.navn ?? null,
        antall: prosjekter.length,
        sum_eu_bidrag: sum,
        prosjekter,
      },
    }
  },
  entities(data) {
    return [organizationEntity(data.organisasjonsnummer, data.navn)]
  },
})
