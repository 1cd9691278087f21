import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { readAvinorFixture, startFakeAvinor } from './fake-avinor.js'

/**
 * The airports Avinor runs, of those in the recorded airport list. Sandefjord Torp (TRF) is
 * not Avinor's, and the foreign airports have no feed of their own: those answer an empty list,
 * as the real feed does.
 */
export const DEMO_AVINOR_AIRPORTS = [
  'OSL',
  'BGO',
  'SVG',
  'TRD',
  'TOS',
  'BOO',
  'AES',
  'KRS',
  'HAU',
  'MOL',
  'KSU',
  'SOG',
  'HOV',
  'EVE',
  'LYR',
  'ALF',
  'KKN',
  'VDS',
  'HFT',
  'BDU',
  'SSJ',
  'MQN',
  'RRS',
  'FRO',
  'FDE',
  'ANX',
  'LKN',
  'SVJ',
] as const

const osloFeed = readAvinorFixture('xmlfeed-osl.xml')

/**
 * An airport's feed for the demo, made from the recorded Oslo feed: the same flights, as seen
 * from `airport`, with Oslo as the other end of those that went to or came from it, and
 * without the stops that would be the airport itself.
 *
 * @example
 * feedFromOslo('BGO') // <airport name="BGO" ...>, WF170 arriving from OSL
 */
export function feedFromOslo(airport: string): string {
  return osloFeed
    .replace('<airport name="OSL"', `<airport name="${airport}"`)
    .replaceAll(`<airport>${airport}</airport>`, '<airport>OSL</airport>')
    .replace(/[ \t]*<via_airport>([^<]*)<\/via_airport>\r?\n?/g, (line, via: string) =>
      via.split(',').includes(airport) ? '' : line,
    )
}

/**
 * The `avinor` source's upstream for the offline demo: Avinor's feeds on the real clock, the
 * recorded flights of Oslo and Tromsø, and for every other airport Avinor runs (Bodø, Bergen,
 * Trondheim, ...) the Oslo flights as seen from there, all moved to the current hour; the
 * recorded airport, airline and status lists.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createTestGateway({ sources: avinor(), upstreams: demo.fakes })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  const ours = new Set<string>(DEMO_AVINOR_AIRPORTS)
  const fake = await startFakeAvinor({
    now: () => new Date(),
    moveToNow: true,
    // Bodø's recorded feed holds one departure; the demo gives it a day's traffic instead.
    feeds: { BOO: feedFromOslo('BOO') },
    fallbackFeed: (airport) => (ours.has(airport) ? feedFromOslo(airport) : undefined),
  })
  return demoUpstreams({ avinor: fake })
}
