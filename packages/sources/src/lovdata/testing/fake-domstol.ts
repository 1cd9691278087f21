import { fakeReply, startFakeUpstream, type FakeUpstream } from '@allmenning/core/testing'
import { buildTextPdf } from './pdf-builder.js'

/** One decision the fake publishes. */
export interface FakeDecision {
  hrNumber: string
  /** The category slug in its address: `hoyesterett---sivil`, `hoyesteretts-ankeutvalg---straff`, `hoyesterett-sivil` (before 2024). */
  slug: string
  title: string
  /** The MainIntro HTML. */
  intro: string
  /** The MainBody HTML. */
  body: string
}

const pdf = (year: number, month: string, hr: string) =>
  `/globalassets/upload/hret/avgjorelser/${year}/${month}/${hr.toLowerCase()}.pdf`

/**
 * Decisions shaped like domstol.no's pages: texts as Høyesterett publishes them, across the
 * address shapes (`avgjorelser-2026/hoyesterett---sivil/HR-…` and `2023/hoyesterett-sivil/hr-…`).
 *
 * @example
 * const fake = await startFakeDomstol({ decisions: [...DOMSTOL_DECISIONS, extra] })
 */
export const DOMSTOL_DECISIONS: FakeDecision[] = [
  {
    hrNumber: 'HR-2026-1360-A',
    slug: 'hoyesterett---sivil',
    title: 'Tillatelser til gruvedrift i Engebøfjellet er ugyldige',
    intro:
      '<p>Høyesteretts dom 12. juni 2026, HR-2026-1360-A, (sak nr. 25-118822SIV-HRET), sivil sak, anke over Borgarting lagmannsretts dom.</p>',
    body:
      '<p>Saken gjaldt gyldigheten av tillatelser til gruvedrift med sjødeponi i Førdefjorden.</p>' +
      `<p>Høyesterett kom til at tillatelsene er ugyldige.</p><p><a href="${pdf(2026, 'juni', 'HR-2026-1360-A')}">Les avgjørelsen fra Høyesterett (PDF)</a></p>` +
      '<p>Rettsområde: Forvaltningsrett, naturmangfoldloven</p><p>Dommere: Bergsjø, Falch, Sivertsen</p>',
  },
  {
    hrNumber: 'HR-2026-1432-A',
    slug: 'hoyesterett---straff',
    title: 'Domfellelse for drapsforsøk opphevet',
    intro:
      '<p>Høyesteretts dom 25. juni 2026, HR-2026-1432-A, (sak nr. 26-020118STR-HRET), straffesak, anke over dom.</p>',
    body: `<p>Lagmannsretten hadde stilt feil spørsmål om forsett.</p><p><a href="${pdf(2026, 'juni', 'HR-2026-1432-A')}">Les avgjørelsen (PDF)</a></p>`,
  },
  {
    hrNumber: 'HR-2025-844-A',
    slug: 'hoyesterett---sivil',
    title: 'Ekspropriasjon av vegrett etter vegloven § 53',
    intro:
      '<p>Høyesteretts dom 9. mai 2025, HR-2025-844-A, (sak nr. 24-182418SIV-HRET), sivil sak, anke over Gulating lagmannsretts jordskifteavgjørelse 4. oktober 2024.</p>' +
      '<p>A (advokat Kitty Moss Sørensen) mot B, C (advokat Christian Schadenberg Mathiassen)</p>',
    body:
      '<p>Eierne av en bolig i Askøy kommune ønsket vegrett på naboens eiendom for å få bedre atkomst og parkering.</p>' +
      '<p>Høyesterett har kommet til at vilkårene for inngrep etter vegloven § 53 er oppfylt.</p>' +
      `<p><a href="${pdf(2025, 'mai', 'HR-2025-844-A')}">Les avgjørelsen fra Høyesterett (PDF)</a></p>` +
      '<p>Dommere: Bull, Høgetveit Berg, Steinsvik, Sæther, Lund<br/>Rettsområde: Ekspropriasjon, vegloven<br/>Nøkkelavsnitt: 40, 47, 57</p>',
  },
  {
    hrNumber: 'HR-2025-812-U',
    slug: 'hoyesteretts-ankeutvalg---straff',
    title: 'Anke over dom nektet fremmet',
    intro:
      '<p>Høyesteretts ankeutvalgs beslutning 6. mai 2025, HR-2025-812-U, (sak nr. 25-057486STR-HRET), straffesak, anke over dom.</p>',
    body: `<p>Dommere: Noer, Arntzen, Sæther</p><p><a href="${pdf(2025, 'mai', 'HR-2025-812-U')}">Les avgjørelsen fra Høyesterett (PDF)</a></p>`,
  },
  {
    hrNumber: 'HR-2025-813-A',
    slug: 'hoyesterett---straff',
    title: 'Straff for publisering av videoer på TikTok',
    intro:
      '<p>Høyesteretts dom 6. mai 2025, HR-2025-813-A, (sak nr. 24-184452STR-HRET), straffesak, anke over Eidsivating lagmannsretts dom 17. oktober 2024.</p>',
    body: '<p>En mann hadde publisert flere hundre videoer på TikTok om ærekrenkelser.</p>',
  },
  {
    hrNumber: 'HR-2023-491-P',
    slug: 'hoyesterett-sivil',
    title: 'Plenumssak om statens erstatningsansvar',
    intro:
      '<p>Høyesteretts dom 16. mars 2023, HR-2023-491-P, (sak nr. 22-080203SIV-HRET), sivil sak, anke over dom.</p>',
    body: `<p>Høyesterett i plenum.</p><p><a href="${pdf(2023, 'mars', 'HR-2023-491-P')}">Les avgjørelsen (PDF)</a></p>`,
  },
]

/** The address of a decision page, in the shape of its year. */
export function decisionPath(decision: FakeDecision): string {
  const year = Number(decision.hrNumber.slice(3, 7))
  return year >= 2024
    ? `/no/hoyesterett/avgjorelser/avgjorelser-${year}/${decision.slug}/${decision.hrNumber}/`
    : `/no/hoyesterett/avgjorelser/${year}/${decision.slug}/${decision.hrNumber.toLowerCase()}/`
}

const jsonInScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

/** A decision page as domstol.no serves it: rendered HTML, then the script with `__INITIAL__DATA__`. */
export function decisionPageHtml(decision: FakeDecision): string {
  const data = {
    IContent: {
      ContentLink: { Id: 91234, WorkId: 0 },
      Name: { Value: decision.title },
      MainIntro: { Value: decision.intro },
      MainBody: { Value: decision.body },
      ContentType: ['Page', 'JudgementPage'],
    },
    Language: 'no',
  }
  return (
    '<!DOCTYPE html><html lang="no"><head><meta charset="utf-8"><title>' +
    decision.title +
    ' - Domstol.no</title></head><body>' +
    `<div id="epi-page-container"><main><h1>${decision.title}</h1><div class="ingress">${decision.intro}</div>` +
    `<div class="xhtml-container-old-domstol">${decision.body}</div></main></div>` +
    '<script type="text/javascript">var __INITIAL__DATA__ = {status: \'loading\' };</script>' +
    `<script type="text/javascript" async defer>__INITIAL__DATA__ = ${jsonInScript(data)}; __INITIAL__DATA__.status = 'available'; if (__INITIAL__DATA__.onReady) __INITIAL__DATA__.onReady();</script>` +
    '</body></html>'
  )
}

/** A decision page after a redesign: the content is there, `__INITIAL__DATA__` is not. */
function redesignedPageHtml(decision: FakeDecision): string {
  return `<!DOCTYPE html><html lang="no"><body><div id="__next"><h1>${decision.title}</h1>${decision.intro}</div><script id="__NEXT_DATA__" type="application/json">{"props":{}}</script></body></html>`
}

const urlset = (paths: string[]) =>
  '<?xml version="1.0" encoding="utf-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
  paths
    .map((p) => `<url><loc>https://www.domstol.no${p}</loc><lastmod>2026-09-01T10:00:00+02:00</lastmod></url>`)
    .join('') +
  '</urlset>'

/**
 * The text of a decision's PDF as the fake prints it, page by page: the court's heading, the
 * intro, and numbered paragraphs (long enough to wrap over several lines), as Høyesterett's
 * decisions are laid out.
 *
 * @example
 * decisionPdfPages(DOMSTOL_DECISIONS[0]!)[0]![0] // 'NORGES HØYESTERETT'
 */
export function decisionPdfPages(decision: FakeDecision): string[][] {
  const intro = decision.intro.replace(/<[^>]+>/g, '')
  return [
    [
      'NORGES HØYESTERETT',
      intro,
      `(1) Saken gjelder ${decision.title.toLowerCase()}. Spørsmålet er om vilkårene i loven § 2 nr. 4 er oppfylt, og hvordan «særlige grunner» skal forstås.`,
      '(2) Lagmannsretten kom til et annet resultat enn tingretten. Den ankende part har i det vesentlige anført at lagmannsretten har tolket loven feil.',
    ],
    ['(3) Jeg er kommet til at anken må forkastes.', 'Dommen er enstemmig.'],
  ]
}

/** What the fake answers for a decision's PDF. */
export type FakePdfAnswer = 'pdf' | 'missing' | 'not-pdf'

export interface FakeDomstol extends FakeUpstream {
  /** From now on answers the PDF of one decision with a 404 or with an HTML page in its place. */
  pdfAnswer(hrNumber: string, answer: FakePdfAnswer): void
  /** Serves the page of one decision in a new shape from now on. */
  redesignPage(hrNumber: string): void
  /** Serves a sitemap that lists no decision from now on. */
  dropDecisionsFromSitemap(): void
  /** Serves a sitemap that lists only the first `keep` decisions from now on, as a site half rebuilt might. */
  cutSitemap(keep: number): void
  /** Requests for decision pages, in order. */
  pageRequests(): string[]
}

/**
 * Starts a local stand-in for domstol.no: `/sitemap.xml` (a sitemap index with two child
 * sitemaps, decisions mixed with other pages), one page per decision with
 * `__INITIAL__DATA__`, and each decision's PDF (a real PDF of {@link decisionPdfPages}). Can play a redesigned decision page, a sitemap without decisions and one cut short.
 *
 * @example
 * const fake = await startFakeDomstol()
 * const decisions = await createHoyesterettClient().year(testUpstreamClient(domstolSite, fake.baseUrl), 2025)
 */
export async function startFakeDomstol(options: { decisions?: FakeDecision[] } = {}): Promise<FakeDomstol> {
  const decisions = options.decisions ?? DOMSTOL_DECISIONS
  const redesigned = new Set<string>()
  let sitemapWithoutDecisions = false
  let listed = decisions.length
  const fake = await startFakeUpstream()
  const xml = (body: string) => fakeReply.text(body, 'application/xml')
  fake.route('/sitemap.xml', () =>
    xml(
      '<?xml version="1.0" encoding="utf-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
        '<sitemap><loc>https://www.domstol.no/sitemap-1.xml</loc></sitemap><sitemap><loc>https://www.domstol.no/sitemap-2.xml</loc></sitemap></sitemapindex>',
    ),
  )
  const paths = decisions.map(decisionPath)
  const half = Math.ceil(paths.length / 2)
  const shown = (from: number, to: number) => (sitemapWithoutDecisions ? [] : paths.slice(from, Math.min(to, listed)))
  fake.route('/sitemap-1.xml', () =>
    xml(urlset(['/no/hoyesterett/', '/no/hoyesterett/avgjorelser/', ...shown(0, half)])),
  )
  fake.route('/sitemap-2.xml', () => xml(urlset(['/no/nar-gar-rettssaken/', ...shown(half, paths.length)])))
  for (const decision of decisions) {
    fake.route(decisionPath(decision), () =>
      fakeReply.html(redesigned.has(decision.hrNumber) ? redesignedPageHtml(decision) : decisionPageHtml(decision)),
    )
  }
  const pdfAnswers = new Map<string, FakePdfAnswer>()
  for (const decision of decisions) {
    const link = /href="([^"]+\.pdf)"/.exec(decision.body)?.[1]
    if (!link) continue
    fake.route(link, () => {
      const answer = pdfAnswers.get(decision.hrNumber) ?? 'pdf'
      if (answer === 'missing') return fakeReply.status(404, 'Not Found')
      if (answer === 'not-pdf')
        return fakeReply.html('<!DOCTYPE html><html><body><h1>Siden finnes ikke</h1></body></html>')
      return fakeReply.bytes(buildTextPdf(decisionPdfPages(decision)), 'application/pdf')
    })
  }
  return Object.assign(fake, {
    pdfAnswer: (hrNumber: string, answer: FakePdfAnswer) => void pdfAnswers.set(hrNumber, answer),
    redesignPage: (hrNumber: string) => void redesigned.add(hrNumber),
    dropDecisionsFromSitemap: () => {
      sitemapWithoutDecisions = true
    },
    cutSitemap: (keep: number) => {
      listed = keep
    },
    pageRequests: () => fake.requests.filter((r) => r.startsWith('/no/hoyesterett/avgjorelser/')),
  })
}
