import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { FAKE_FROST_CLIENT_ID, startFakeFrost } from './fake-frost.js'

/** The client id the demo's Frost accepts. */
export const DEMO_FROST_CLIENT_ID = 'demo'

/**
 * The `frost` source's upstream for the offline demo: Frost accepting the client id `demo` (and
 * the tests' id), with stations in Oslo, Akershus and the largest cities, and latest values moved
 * to now for every station in use (Blindern's where none was recorded).
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createTestGateway({ sources: frost({ clientId: DEMO_FROST_CLIENT_ID }), upstreams: demo.fakes })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  return demoUpstreams({
    frost: await startFakeFrost({
      clientIds: [DEMO_FROST_CLIENT_ID, FAKE_FROST_CLIENT_ID],
      fallbackStation: 'SN18700',
    }),
  })
}
