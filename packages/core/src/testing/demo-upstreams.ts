import type { FakeUpstream } from './fake-upstream.js'

/**
 * A source's upstreams played on 127.0.0.1 for the offline demo (`ALLMENNING_DEMO=1`): each
 * upstream id of the source mapped to the fake that plays it. A demo fake answers every
 * example its source documents, a point in Oslo (59.91, 10.75), Oslo's municipality (0301) and
 * county (03), and today's dates, from the source's own recorded fixtures; it accepts the key
 * `demo` where the real upstream wants one.
 */
export interface DemoUpstreams {
  /** Upstream id (as in `defineUpstream({ id })`) → the fake playing it. */
  fakes: Record<string, FakeUpstream>
  /** Stops every fake. */
  close(): Promise<void>
}

/**
 * Bundles started fakes as a source's {@link DemoUpstreams}.
 *
 * @example
 * export async function startDemoUpstreams(): Promise<DemoUpstreams> {
 *   const statnett = await startFakeUpstream({ '/PhysicalFlowMap/GetFlow': () => fakeReply.json([]) })
 *   return demoUpstreams({ statnett })
 * }
 */
export function demoUpstreams(fakes: Record<string, FakeUpstream>): DemoUpstreams {
  return {
    fakes,
    close: async () => {
      await Promise.all(Object.values(fakes).map((fake) => fake.close()))
    },
  }
}
