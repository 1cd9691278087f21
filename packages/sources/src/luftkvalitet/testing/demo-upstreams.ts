import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { startFakeMetAirquality } from './fake-met-airquality.js'

/**
 * The `luftkvalitet` source's upstream for the offline demo: MET's air-quality forecast with
 * its recorded station list (Oslo, Bergen, Trondheim, Tromsø) and the recorded forecast for
 * central Oslo, which answers every point in Norway and every listed station, its first hour
 * moved to the current one.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createTestGateway({ sources: luftkvalitet(), upstreams: demo.fakes })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  return demoUpstreams({ met_airquality: await startFakeMetAirquality() })
}
