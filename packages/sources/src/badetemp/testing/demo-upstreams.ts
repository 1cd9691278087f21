import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { FAKE_YR_BADETEMP_KEY, startFakeYrBadetemperaturer } from './fake-yr-badetemperaturer.js'

/** The API key the demo's Yr accepts. */
export const DEMO_YR_BADETEMP_KEY = 'demo'

/**
 * The `badetemp` source's upstream for the offline demo: Yr's bathing temperatures accepting the
 * key `demo` (and the tests' key), with points around Oslo and the largest cities, their readings
 * moved to now, and the recorded readings for any plausible location id.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createTestGateway({ sources: badetemp({ apiKey: DEMO_YR_BADETEMP_KEY }), upstreams: demo.fakes })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  return demoUpstreams({
    yr_badetemperaturer: await startFakeYrBadetemperaturer({
      keys: [DEMO_YR_BADETEMP_KEY, FAKE_YR_BADETEMP_KEY],
      anyLocation: true,
    }),
  })
}
