import { readFileSync } from 'node:fs'
import { demoUpstreams, startFakeUpstream, type DemoUpstreams } from '@allmenning/core/testing'
import { overpassFixture, overpassRoute, type Element } from './fake-overpass.js'

/**
 * Elements of our own around Oslo sentrum, one for each category `list_categories` lists (named
 * ones named "<Norwegian name> Sentrum", the kinds OpenStreetMap usually leaves unnamed without a
 * name), all within 600 m of the point 59.91, 10.75, in Overpass's layout.
 */
const demoElements = (
  JSON.parse(readFileSync(new URL('./fixtures/elements-oslo-demo.json', import.meta.url), 'utf8')) as {
    elements: Element[]
  }
).elements

/**
 * The upstream of the `poi_norge` source played locally for the offline demo
 * (`ALLMENNING_DEMO=1`): Overpass over the tests' Oslo sentrum elements and one element of every
 * category the source knows by name, so that a search around Oslo finds something for each.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createGateway({ sources: [poiNorge()], upstreams: { overpass: { baseUrl: demo.fakes.overpass!.baseUrl } } })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  const recorded = (JSON.parse(overpassFixture) as { elements: Element[] }).elements
  const overpass = await startFakeUpstream({ '/interpreter': overpassRoute([...recorded, ...demoElements]) }, '/api')
  return demoUpstreams({ overpass })
}
