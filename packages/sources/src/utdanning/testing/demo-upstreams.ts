import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { startFakeKommuneinfo } from '../../shared/testing/fake-kommuneinfo.js'
import { startFakeNbr, startFakeNsr } from './fake-udir.js'

/**
 * The `utdanning` source's upstreams played locally for the offline demo: Udir's two registers
 * (any municipality answered with the recorded Oslo units, any organisation number with a
 * recorded record) and Kartverket's kommuneinfo for municipality names and points.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createTestGateway({ sources: utdanning(), upstreams: demo.fakes })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  const [nsr, nbr, kommuneinfo] = await Promise.all([
    startFakeNsr(undefined, { demo: true }),
    startFakeNbr(undefined, { demo: true }),
    startFakeKommuneinfo(),
  ])
  return demoUpstreams({ udir_nsr: nsr, udir_nbr: nbr, kartverket_kommuneinfo: kommuneinfo })
}
