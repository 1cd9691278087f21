import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { startFakeDigitalarkivet } from './fake-digitalarkivet.js'

/**
 * The `arkivverket` source's upstream played locally for the offline demo: the census API over
 * the fixture's records (Kristiania addresses around Oslo S, farms in Aker, Balestrand and Fane),
 * answering any plausible bf…/gf… id with a recorded place, as the real archive would have one.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createTestGateway({ sources: arkivverket(), upstreams: demo.fakes })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  return demoUpstreams({ digitalarkivet: await startFakeDigitalarkivet({ anyPlausibleId: true }) })
}
