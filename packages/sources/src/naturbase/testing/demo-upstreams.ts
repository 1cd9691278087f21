import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { startFakeNaturbase } from './fake-naturbase.js'

/**
 * The `naturbase` source's upstream played locally for the offline demo: Miljødirektoratet's
 * `vern` layer with its recorded areas in and around Oslo (so a point in Oslo has protected
 * areas within the default 5 km), and any Naturbase id answered with Østensjøvannet's record.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createGateway({ sources: [naturbase()], upstreams: { naturbase_vern: { baseUrl: demo.fakes.naturbase_vern!.baseUrl } } })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  return demoUpstreams({ naturbase_vern: await startFakeNaturbase({ anyId: true }) })
}
