import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { startFakeKartverketPoints } from './fake-kartverket-points.js'
import { startFakeHydapi } from './fake-hydapi.js'
import { startFakeVarsomAvalanche, startFakeVarsomHydro } from './fake-varsom.js'

/**
 * Every upstream of the `nve` source played locally for the offline demo (`ALLMENNING_DEMO=1`):
 * Varsom's flood and landslide APIs with a quiet day's green entry for any county without a
 * recording (Oslo, 03, and Vestland and Nordland have recorded warnings), its avalanche API,
 * Kartverket's address register (which places a point in Oslo, Bergen or Hemnes in its
 * municipality), and HydAPI with its stations around Oslo and elsewhere, accepting the key
 * `demo`. Every day asked for is answered, and HydAPI's newest data is always from the current hour.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createGateway({ sources: [nve({ hydapiKey: 'demo' })], upstreams: Object.fromEntries(Object.entries(demo.fakes).map(([id, f]) => [id, { baseUrl: f.baseUrl }])) })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  const [flood, landslide, avalanche, kartverket, hydapi] = await Promise.all([
    startFakeVarsomHydro('flood', { quietDays: true }),
    startFakeVarsomHydro('landslide', { quietDays: true }),
    startFakeVarsomAvalanche(),
    startFakeKartverketPoints(),
    startFakeHydapi(),
  ])
  return demoUpstreams({
    nve_flood: flood,
    nve_landslide: landslide,
    nve_avalanche: avalanche,
    kartverket_adresser: kartverket,
    nve_hydapi: hydapi,
  })
}
