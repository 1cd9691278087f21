import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { startFakeKommuneinfo } from '../../shared/testing/fake-kommuneinfo.js'
import { startFakeArtskart } from './fake-artskart.js'

/**
 * The `artskart` source's upstreams played locally for the offline demo: Artskart with its
 * recorded observations moved into whatever days are asked for (so Oslo, by number 0301 or 301
 * or by name, and a point in Oslo have observations today), and Kartverket's kommuneinfo with
 * its recorded municipalities.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * const upstreams = Object.fromEntries(Object.entries(demo.fakes).map(([id, fake]) => [id, { baseUrl: fake.baseUrl }]))
 * createGateway({ sources: [artskart()], upstreams })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  const [artskart, kommuneinfo] = await Promise.all([startFakeArtskart({ shiftDates: true }), startFakeKommuneinfo()])
  return demoUpstreams({ artskart, kartverket_kommuneinfo: kommuneinfo })
}
