import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { startFakeKommuneinfo } from '../../shared/testing/fake-kommuneinfo.js'
import { FAKE_DIMU_KEY, startFakeDimu } from './fake-dimu.js'
import { startFakeRiksantikvaren } from './fake-riksantikvaren.js'

/** The API key the demo's DigitaltMuseum accepts (answering at most 10 rows, as the real `demo` key does). */
export const DEMO_DIMU_KEY = 'demo'

/**
 * The `kulturarv` source's upstreams played locally for the offline demo: Riksantikvaren's OGC
 * API with Oslo's museums, churches and monuments (and a site in Bergen), DigitaltMuseum taking
 * the key `demo`, and Kartverket's kommuneinfo for Oslo given as Oslo, 0301 or 301.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createTestGateway({ sources: kulturarv({ dimuApiKey: DEMO_DIMU_KEY }), upstreams: demo.fakes })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  const [riksantikvaren, dimu, kommuneinfo] = await Promise.all([
    startFakeRiksantikvaren(),
    startFakeDimu({ keys: [FAKE_DIMU_KEY], limitedKeys: [DEMO_DIMU_KEY] }),
    startFakeKommuneinfo(),
  ])
  return demoUpstreams({ riksantikvaren, dimu, kartverket_kommuneinfo: kommuneinfo })
}
