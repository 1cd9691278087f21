import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { fakeTideZones, startFakeKartverketTide, type FakeTideZone } from './fake-kartverket-tide.js'
import { startFakeMetLocationforecast } from './fake-met-locationforecast.js'

/**
 * The demo's coast beyond the tests' three zones (Oslo, Bergen, Tromsø): a zone at each of
 * Kartverket's larger tide gauges from Tregde to Hammerfest, so a harbour anywhere along the
 * coast has tides. Their amplitudes and datums are of the right size for the place, not
 * Kartverket's figures; like the tests' zones, the curves are the fake's own.
 */
export const demoTideZones: FakeTideZone[] = [
  {
    name: 'Viker',
    code: 'VIK',
    lat: 59.036,
    lon: 10.95,
    amplitude: 12.0,
    chartDatumBelowMsl: 33.0,
    nn2000AboveMsl: 5.5,
  },
  {
    name: 'Helgeroa',
    code: 'HEI',
    lat: 58.995,
    lon: 9.856,
    amplitude: 9.5,
    chartDatumBelowMsl: 30.0,
    nn2000AboveMsl: 4.5,
  },
  {
    name: 'Tregde',
    code: 'TRG',
    lat: 58.006,
    lon: 7.555,
    amplitude: 8.0,
    chartDatumBelowMsl: 28.0,
    nn2000AboveMsl: 3.0,
  },
  {
    name: 'Stavanger',
    code: 'SVG',
    lat: 58.974,
    lon: 5.73,
    amplitude: 22.0,
    chartDatumBelowMsl: 60.0,
    nn2000AboveMsl: 7.0,
  },
  {
    name: 'Måløy',
    code: 'MAY',
    lat: 61.934,
    lon: 5.113,
    amplitude: 64.0,
    chartDatumBelowMsl: 108.0,
    nn2000AboveMsl: 12.0,
  },
  {
    name: 'Ålesund',
    code: 'AES',
    lat: 62.469,
    lon: 6.152,
    amplitude: 68.0,
    chartDatumBelowMsl: 114.0,
    nn2000AboveMsl: 12.5,
  },
  {
    name: 'Trondheim',
    code: 'TRD',
    lat: 63.437,
    lon: 10.392,
    amplitude: 90.0,
    chartDatumBelowMsl: 155.0,
    nn2000AboveMsl: 15.0,
  },
  {
    name: 'Bodø',
    code: 'BOO',
    lat: 67.288,
    lon: 14.392,
    amplitude: 98.0,
    chartDatumBelowMsl: 160.0,
    nn2000AboveMsl: 17.0,
  },
  {
    name: 'Narvik',
    code: 'NVK',
    lat: 68.428,
    lon: 17.426,
    amplitude: 108.0,
    chartDatumBelowMsl: 175.0,
    nn2000AboveMsl: 18.0,
  },
  {
    name: 'Hammerfest',
    code: 'HFT',
    lat: 70.665,
    lon: 23.683,
    amplitude: 88.0,
    chartDatumBelowMsl: 145.0,
    nn2000AboveMsl: 16.5,
  },
]

/**
 * The `weather` source's upstreams for the offline demo: MET's Locationforecast answering its
 * recorded Oslo forecast for any point, moved so that it starts at the current hour, and
 * Kartverket's water-level API with the fake's tides along the whole coast, from now.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createTestGateway({ sources: weather(), upstreams: demo.fakes })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  const [met, tide] = await Promise.all([
    startFakeMetLocationforecast(),
    startFakeKartverketTide([...fakeTideZones, ...demoTideZones]),
  ])
  return demoUpstreams({ met_locationforecast: met, kartverket_tide: tide })
}
