import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { startFakeKommuneinfo } from '../../shared/testing/fake-kommuneinfo.js'
import { startFakeAnleggsregisteret } from './fake-anleggsregisteret.js'

/**
 * The `anleggsregisteret` source's upstreams played locally for the offline demo: the back
 * office with the recorded register (one page, so it is read at the first call), and
 * Kartverket's kommuneinfo for municipalities given by number (Oslo as 0301 or 301).
 *
 * @example
 * const demo = await startDemoUpstreams()
 * const upstreams = Object.fromEntries(Object.entries(demo.fakes).map(([id, fake]) => [id, { baseUrl: fake.baseUrl }]))
 * createGateway({ sources: [anleggsregisteret()], upstreams })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  const [register, kommuneinfo] = await Promise.all([startFakeAnleggsregisteret(), startFakeKommuneinfo()])
  return demoUpstreams({ anleggsregisteret: register, kartverket_kommuneinfo: kommuneinfo })
}
