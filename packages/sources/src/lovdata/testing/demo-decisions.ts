import { DOMSTOL_DECISIONS, type FakeDecision } from './fake-domstol.js'

const MONTHS = [
  'januar',
  'februar',
  'mars',
  'april',
  'mai',
  'juni',
  'juli',
  'august',
  'september',
  'oktober',
  'november',
  'desember',
]

/** A made-up decision: what it is about, and how many days before the demo's day it was given. */
interface RecentCase {
  daysAgo: number
  /** `sivil`, `straff`, or an appeals committee's `ankeutvalg-sivil` / `ankeutvalg-straff`. */
  kind: 'sivil' | 'straff' | 'ankeutvalg-sivil' | 'ankeutvalg-straff'
  title: string
  appeal: string
  summary: string[]
  area: string
}

// Made up for the demo, on subjects people search for; the judges' names are invented too.
const RECENT_CASES: RecentCase[] = [
  {
    daysAgo: 3,
    kind: 'sivil',
    title: 'Omsorgsovertakelse etter barnevernsloven',
    appeal: 'anke over Borgarting lagmannsretts dom',
    summary: [
      'Saken gjaldt om vilkårene for omsorgsovertakelse etter barnevernsloven § 5-1 var oppfylt.',
      'Høyesterett kom til at barnets beste tilsa at omsorgen ble overtatt.',
    ],
    area: 'Barnevern, barnevernsloven',
  },
  {
    daysAgo: 12,
    kind: 'sivil',
    title: 'Oppsigelse på grunn av driftsinnskrenkning var saklig',
    appeal: 'anke over Gulating lagmannsretts dom',
    summary: [
      'En arbeidstaker ble sagt opp etter at bedriften la ned avdelingen hun arbeidet i.',
      'Høyesterett kom til at oppsigelsen var saklig etter arbeidsmiljøloven § 15-7.',
    ],
    area: 'Arbeidsrett, arbeidsmiljøloven',
  },
  {
    daysAgo: 27,
    kind: 'straff',
    title: 'Straffutmåling for grov narkotikaforbrytelse',
    appeal: 'anke over Agder lagmannsretts dom',
    summary: [
      'Saken gjaldt straffutmåling for oppbevaring av narkotika etter straffeloven § 232.',
      'Høyesterett satte straffen til fengsel i fire år.',
    ],
    area: 'Strafferett, straffeloven',
  },
  {
    daysAgo: 45,
    kind: 'ankeutvalg-straff',
    title: 'Anke over dom for grov kroppsskade nektet fremmet',
    appeal: 'anke over Hålogaland lagmannsretts dom',
    summary: ['Høyesteretts ankeutvalg fant det klart at anken ikke ville føre frem.'],
    area: 'Strafferett, straffeprosessloven',
  },
  {
    daysAgo: 73,
    kind: 'sivil',
    title: 'Skatteplikt for gevinst ved salg av aksjer',
    appeal: 'anke over Frostating lagmannsretts dom',
    summary: [
      'Spørsmålet var om gevinsten ved et salg av aksjer var skattepliktig inntekt etter skatteloven § 10-31.',
      'Høyesterett kom til at gevinsten var skattepliktig.',
    ],
    area: 'Skatterett, skatteloven',
  },
  {
    daysAgo: 104,
    kind: 'sivil',
    title: 'Erstatning for personskade etter trafikkulykke',
    appeal: 'anke over Eidsivating lagmannsretts dom',
    summary: [
      'Saken gjaldt utmåling av erstatning for tap i fremtidig inntekt etter en trafikkulykke.',
      'Høyesterett la til grunn at skadelidte hadde krav på erstatning etter bilansvarsloven.',
    ],
    area: 'Erstatningsrett, bilansvarsloven',
  },
  {
    daysAgo: 190,
    kind: 'ankeutvalg-sivil',
    title: 'Anke over kjennelse om midlertidig forføyning forkastet',
    appeal: 'anke over Borgarting lagmannsretts kjennelse',
    summary: ['Høyesteretts ankeutvalg kom til at lagmannsretten hadde tolket tvisteloven riktig.'],
    area: 'Sivilprosess, tvisteloven',
  },
  {
    daysAgo: 260,
    kind: 'sivil',
    title: 'Erstatning etter brudd på personopplysningsloven',
    appeal: 'anke over Borgarting lagmannsretts dom',
    summary: [
      'En kommune hadde delt helseopplysninger om en ansatt uten rettslig grunnlag.',
      'Høyesterett kom til at den ansatte hadde krav på erstatning for ikke-økonomisk tap.',
    ],
    area: 'Personvern, personopplysningsloven',
  },
  {
    daysAgo: 340,
    kind: 'straff',
    title: 'Ærekrenkelser i sosiale medier',
    appeal: 'anke over Gulating lagmannsretts dom',
    summary: [
      'Saken gjaldt om publisering av videoer i sosiale medier var straffbar krenkelse av privatlivets fred.',
      'Høyesterett kom til at domfellelsen ble stående.',
    ],
    area: 'Strafferett, ytringsfrihet',
  },
]

const SLUGS = {
  sivil: 'hoyesterett---sivil',
  straff: 'hoyesterett---straff',
  'ankeutvalg-sivil': 'hoyesteretts-ankeutvalg---sivil',
  'ankeutvalg-straff': 'hoyesteretts-ankeutvalg---straff',
}

/**
 * Høyesterett decisions dated in the days before `now`, as domstol.no would publish them, so
 * that the demo's `search_case_law` (which covers this year and last year) finds decisions on
 * barnevern, oppsigelse, narkotika, skatt, erstatning, personvern and more whatever the day.
 * Case numbers follow the year's count of about seven a day and never repeat a recorded one.
 *
 * @example
 * recentDecisions(new Date('2026-11-28T12:00:00Z'))[0]?.hrNumber // 'HR-2026-2303-A'
 */
export function recentDecisions(now: Date): FakeDecision[] {
  const taken = new Set(DOMSTOL_DECISIONS.map((decision) => decision.hrNumber))
  return RECENT_CASES.map((recent, index) => {
    const day = new Date(now.getTime() - recent.daysAgo * 86_400_000)
    const year = day.getUTCFullYear()
    const dayOfYear = Math.floor((day.getTime() - Date.UTC(year, 0, 1)) / 86_400_000) + 1
    const letter = recent.kind.startsWith('ankeutvalg') ? 'U' : 'A'
    let number = dayOfYear * 7 + index
    while (taken.has(`HR-${year}-${number}-${letter}`)) number++
    const hrNumber = `HR-${year}-${number}-${letter}`
    taken.add(hrNumber)
    const date = `${day.getUTCDate()}. ${MONTHS[day.getUTCMonth()]} ${year}`
    const civil = recent.kind.endsWith('sivil')
    const serial = 100_000 + ((dayOfYear * 7919 + index * 104_729) % 900_000)
    const caseNumber = `${String(year - 1).slice(2)}-${serial}${civil ? 'SIV' : 'STR'}-HRET`
    const court = letter === 'U' ? 'Høyesteretts ankeutvalgs beslutning' : 'Høyesteretts dom'
    const pdf = `/globalassets/upload/hret/avgjorelser/${year}/${MONTHS[day.getUTCMonth()]}/${hrNumber.toLowerCase()}.pdf`
    return {
      hrNumber,
      slug: SLUGS[recent.kind],
      title: recent.title,
      intro: `<p>${court} ${date}, ${hrNumber}, (sak nr. ${caseNumber}), ${civil ? 'sivil sak' : 'straffesak'}, ${recent.appeal}.</p>`,
      body:
        recent.summary.map((paragraph) => `<p>${paragraph}</p>`).join('') +
        `<p><a href="${pdf}">Les avgjørelsen fra Høyesterett (PDF)</a></p>` +
        `<p>Dommere: Aasen, Brekke, Dahl${letter === 'U' ? '' : ', Fjeld, Moe'}<br/>Rettsområde: ${recent.area}</p>`,
    }
  })
}
