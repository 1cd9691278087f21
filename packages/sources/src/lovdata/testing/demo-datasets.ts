import type { DemoDatasetLoad } from '../../shared/demo-dataset-load.js'
import { LOVDATA_RULE_FILES } from '../lovdata-upstream.js'
import { lovdataLaws, lovdataRegulations } from '../rule-datasets.js'
import { demoRuleArchive } from './demo-rule-archives.js'

/**
 * When the demo's archives of rules were rebuilt: 02:14 UTC on `today`, as Lovdata rebuilds
 * its archives nightly. Both the demo's Lovdata list and its loaded datasets give this time.
 *
 * @example
 * demoRebuildTime('2026-11-28') // '2026-11-28T02:14:07Z'
 */
export function demoRebuildTime(today = new Date().toISOString().slice(0, 10)): string {
  return `${today}T02:14:07Z`
}

/**
 * The two rule datasets of the offline demo, `lovdata_lover` and `lovdata_forskrifter`, from
 * the kept archives of {@link demoRuleArchives} (the test fixtures' laws and regulations).
 *
 * @example
 * const datasets = createLoadedDatasets()
 * for (const load of lovdataDemoDatasetFiles()) await datasets.load(load.dataset, load.files, load.publishedAt)
 */
export function lovdataDemoDatasetFiles(today?: string): DemoDatasetLoad[] {
  const publishedAt = demoRebuildTime(today)
  return [
    {
      dataset: lovdataLaws,
      publishedAt,
      files: [{ file: LOVDATA_RULE_FILES.laws, bytes: demoRuleArchive(LOVDATA_RULE_FILES.laws) }],
    },
    {
      dataset: lovdataRegulations,
      publishedAt,
      files: [{ file: LOVDATA_RULE_FILES.regulations, bytes: demoRuleArchive(LOVDATA_RULE_FILES.regulations) }],
    },
  ]
}
