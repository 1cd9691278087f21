import { createFindFireDetections } from './find-fire-detections.js'

/** The operations of one `firms()` source, with its MAP_KEY, in the order of its outline: loaded when a request first reads them. */
export function firmsOperations(mapKey: string | undefined) {
  return [createFindFireDetections(mapKey)]
}
