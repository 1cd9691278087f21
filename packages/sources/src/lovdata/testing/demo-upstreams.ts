import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { DOMSTOL_DECISIONS, startFakeDomstol } from './fake-domstol.js'
import { startFakePublicData } from './fake-public-data.js'
import { recentDecisions } from './demo-decisions.js'
import { demoRuleArchive, demoRuleArchives } from './demo-rule-archives.js'
import { demoRebuildTime } from './demo-datasets.js'

/**
 * Lovdata's upstreams for the offline demo:
 * - domstol.no with the recorded decisions (`HR-2025-844-A` of the docs among them) and
 *   decisions dated in the days and months before today ({@link recentDecisions}), so
 *   `search_case_law`, which covers this year and last year, finds decisions on the subjects
 *   people search for, and `list_case_law` lists this year's;
 * - Lovdata's public data offering the demo's two archives of rules, rebuilt (as Lovdata
 *   rebuilds them nightly) at 02:14 UTC today. The rule operations read the datasets, not
 *   this upstream: it is what `allmenning datasets sync lovdata_lover lovdata_forskrifter`
 *   would download.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createGateway({ sources: [lovdata()], upstreams: { domstol: { baseUrl: demo.fakes.domstol!.baseUrl } } })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  const rebuilt = demoRebuildTime()
  const files = Object.fromEntries(
    demoRuleArchives.map((archive) => [
      archive.file,
      { bytes: demoRuleArchive(archive.file), description: archive.description, lastModified: rebuilt },
    ]),
  )
  const [domstol, lovdata] = await Promise.all([
    startFakeDomstol({ decisions: [...recentDecisions(new Date()), ...DOMSTOL_DECISIONS] }),
    startFakePublicData(files),
  ])
  return demoUpstreams({ lovdata, domstol })
}
