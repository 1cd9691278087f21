import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { FAKE_BANENOR_KEY, startFakeBanenor } from './fake-banenor.js'

/** The subscription key the demo's Bane NOR accepts. */
export const DEMO_BANENOR_KEY = 'demo'

/**
 * The `banenor` source's upstream for the offline demo: Bane NOR's SIRI ET accepting the key
 * `demo` (and the tests' key), answering the demo network with its times shifted to now, so
 * the boards of Oslo S, Nationaltheatret, Skøyen, Bryn, Alnabru, Trondheim S and Bergen show
 * trains in the next hour, a freight train and a cancelled one among them.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createTestGateway({ sources: banenor({ subscriptionKey: DEMO_BANENOR_KEY }), upstreams: demo.fakes })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  return demoUpstreams({ banenor_siri_et: await startFakeBanenor({ keys: [DEMO_BANENOR_KEY, FAKE_BANENOR_KEY] }) })
}
