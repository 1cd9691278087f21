import { createFindFireDetections } from './find-fire-detections.js'

/** The operations of one `firms()` source, with its MAP_KEY, keyed as its outline reads them: loaded when a request first reads them. */
export function firmsOperations(mapKey: string | undefined) {
  return { findFireDetections: createFindFireDetections(mapKey) }
}
