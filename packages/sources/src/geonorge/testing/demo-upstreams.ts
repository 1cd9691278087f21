import { readFileSync } from 'node:fs'
import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import {
  recordedAddresses,
  recordedPlaces,
  startFakeKartverketAdresser,
  startFakeKartverketStedsnavn,
  type RecordedAddress,
  type RecordedPlace,
} from './fake-kartverket.js'

const fixture = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as T

/**
 * Addresses written for the demo in the address API's shape: around Oslo S and Bjørvika
 * (within 250 m of 59.91, 10.75), and a central one in Bergen, Trondheim, Stavanger, Tromsø,
 * Kristiansand and Bodø. Their positions are close; their cadastral numbers are made up.
 */
export const demoAddresses = fixture<RecordedAddress[]>('addresses-demo.json')

/**
 * Places written for the demo in the place-name API's shape: Oslo's fifteen administrative
 * districts (which clients list with `A*`, `B*`, ... and `navneobjekttype=administrativBydel`),
 * the names around Oslo S, the municipality of Oslo, and the cities of Norway.
 */
export const demoPlaces = fixture<RecordedPlace[]>('places-demo.json')

/**
 * The `geonorge` source's upstreams for the offline demo: Kartverket's address API and
 * place-name API with the recorded and the demo's addresses and places; an address whose
 * house number is not held finds the street's others.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createTestGateway({ sources: geonorge(), upstreams: demo.fakes })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  const [adresser, stedsnavn] = await Promise.all([
    startFakeKartverketAdresser({ addresses: [...recordedAddresses, ...demoAddresses], streetFallback: true }),
    startFakeKartverketStedsnavn([...recordedPlaces, ...demoPlaces]),
  ])
  return demoUpstreams({ kartverket_adresser: adresser, kartverket_stedsnavn: stedsnavn })
}
