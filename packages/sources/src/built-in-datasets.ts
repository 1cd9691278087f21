import type { DatasetDefinition } from '@allmenning/core/source'
import { firmafaktaDatasets } from './firmafakta/datasets/firmafakta-datasets.js'
import { lovdataLaws, lovdataRegulations } from './lovdata/rule-datasets.js'
import { mattilsynetDatasets } from './mattilsynet/mattilsynet-datasets.js'
import { udirEnheter } from './utdanning/datasets/udir-enheter.js'

/**
 * Every bulk dataset the built-in sources read: what `allmenning datasets` lists, syncs and
 * imports by default, and what its import worker loads definitions from.
 *
 * @example
 * builtInDatasets.map((dataset) => dataset.id) // ['aksjonaerregisteret', ...]
 */
export const builtInDatasets: DatasetDefinition[] = [
  ...firmafaktaDatasets,
  lovdataLaws,
  lovdataRegulations,
  ...mattilsynetDatasets,
  udirEnheter,
]
