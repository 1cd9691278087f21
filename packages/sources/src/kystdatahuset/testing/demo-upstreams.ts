import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { startFakeKystdatahuset } from './fake-kystdatahuset.js'

/**
 * The `kystdatahuset` source's upstream for the offline demo: Kystdatahuset's location register
 * with its recorded quays, ports and anchorages, in Oslo harbour and from Fredrikstad to
 * Tromsø (the register changes rarely, so nothing in it needs moving in time).
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createTestGateway({ sources: kystdatahuset(), upstreams: demo.fakes })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  return demoUpstreams({ kystdatahuset: await startFakeKystdatahuset() })
}
