import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { startFakeMattilsynet } from './fake-mattilsynet.js'

/**
 * Mattilsynet's upstream for the offline demo: `data.mattilsynet.no` serving the demo's
 * smilefjes file (what `allmenning datasets sync mattilsynet_smilefjes` would download). The
 * operations read the loaded datasets (`loadDemoDatasets()` loads this source's demo files),
 * not this upstream.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createGateway({ sources: [mattilsynet()], datasets: store, upstreams: { mattilsynet_data: { baseUrl: demo.fakes.mattilsynet_data!.baseUrl } } })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  return demoUpstreams({ mattilsynet_data: await startFakeMattilsynet() })
}
