import type { VernFeature } from './arcgis-answer.js'

/**
 * The features of an answer with one per area: the service may split an area over several
 * features (parts kept apart in the register), which are joined here by `naturvernId`, their
 * polygons together, in the order the areas first came.
 *
 * @example
 * const a = [[[10, 60], [10, 60.1], [10.1, 60.1], [10, 60]]] as [number, number][][]
 * const b = [[[11, 60], [11, 60.1], [11.1, 60.1], [11, 60]]] as [number, number][][]
 * featuresById([{ attributes: { naturvernId: 'VV00000970' }, polygons: [a] }, { attributes: { naturvernId: 'VV00000970' }, polygons: [b] }])
 * // one feature VV00000970 with polygons [a, b]
 */
export function featuresById(features: VernFeature[]): VernFeature[] {
  const byId = new Map<string, VernFeature>()
  for (const feature of features) {
    const seen = byId.get(feature.attributes.naturvernId)
    if (seen)
      byId.set(feature.attributes.naturvernId, {
        attributes: seen.attributes,
        polygons: [...seen.polygons, ...feature.polygons],
      })
    else byId.set(feature.attributes.naturvernId, feature)
  }
  return [...byId.values()]
}
