import { readFileSync } from 'node:fs'
import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { layer0Features, startFakeFiskeridirGis, startFakePubAqua } from './fake-fiskeridir.js'

/**
 * Sites written for the demo in map layer 0's shape: mussel and kelp farms in the inner
 * Oslofjord (within 10 km of Oslo's centre), shellfish and research sites further out the
 * fjord, and salmon farms from Agder to Finnmark, so a point anywhere on the coast finds some.
 * Their names, numbers and holders are made up.
 */
export const demoLayer0Features = (
  JSON.parse(readFileSync(new URL('./fixtures/arcgis-layer0-demo.json', import.meta.url), 'utf8')) as {
    features: typeof layer0Features
  }
).features

/**
 * The `akvakultur` source's upstreams for the offline demo: the ArcGIS map layer with the
 * recorded sites (around Bergen) and the demo's, and the register API with its recorded sites
 * (Møre og Romsdal), which the source reads only when the map layer is empty.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createTestGateway({ sources: akvakultur(), upstreams: demo.fakes })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  const [gis, aqua] = await Promise.all([
    startFakeFiskeridirGis([...layer0Features, ...demoLayer0Features]),
    startFakePubAqua(),
  ])
  return demoUpstreams({ fiskeridir_gis: gis, fiskeridir_aqua: aqua })
}
