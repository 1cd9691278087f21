import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { startFakeKommuneinfo } from '../../shared/testing/fake-kommuneinfo.js'
import { startFakeNrk } from './fake-nrk.js'
import { startFakePolitiloggen } from './fake-politiloggen.js'
import { startFakeStedsnavn } from './fake-stedsnavn.js'

/**
 * The `nyheter` source's upstreams played locally for the offline demo: Politiloggen and NRK
 * Stor-Oslo with their recorded news moved up to now (so a point in Oslo has news from the
 * last 24 hours), Kartverket's place names with the messages' areas, and kommuneinfo with its
 * recorded municipalities.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * const upstreams = Object.fromEntries(Object.entries(demo.fakes).map(([id, fake]) => [id, { baseUrl: fake.baseUrl }]))
 * createGateway({ sources: [nyheter()], upstreams })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  const [politiloggen, nrk, stedsnavn, kommuneinfo] = await Promise.all([
    startFakePolitiloggen({ shiftToNow: true }),
    startFakeNrk({ shiftToNow: true }),
    startFakeStedsnavn(),
    startFakeKommuneinfo(),
  ])
  return demoUpstreams({
    politiloggen,
    nrk_rss: nrk,
    kartverket_stedsnavn: stedsnavn,
    kartverket_kommuneinfo: kommuneinfo,
  })
}
