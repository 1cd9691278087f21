import { overrideUpstreams } from '@allmenning/core'
import type { SourceDefinition } from '@allmenning/core/source'
import type { DemoUpstreams, FakeUpstream } from '@allmenning/core/testing'
import { builtInSources } from '../built-in-sources.js'
import { startDemoUpstreams as ais } from '@allmenning/sources/ais/testing'
import { startDemoUpstreams as akvakultur } from '@allmenning/sources/akvakultur/testing'
import { startDemoUpstreams as anleggsregisteret } from '@allmenning/sources/anleggsregisteret/testing'
import { startDemoUpstreams as arkivverket } from '@allmenning/sources/arkivverket/testing'
import { startDemoUpstreams as artskart, startFakeKommuneinfo } from '@allmenning/sources/artskart/testing'
import { startDemoUpstreams as avinor } from '@allmenning/sources/avinor/testing'
import { startDemoUpstreams as banenor } from '@allmenning/sources/banenor/testing'
import { startDemoUpstreams as badetemp } from '@allmenning/sources/badetemp/testing'
import { startDemoUpstreams as entur } from '@allmenning/sources/entur/testing'
import { startDemoUpstreams as firmafakta } from '@allmenning/sources/firmafakta/testing'
import { startDemoUpstreams as firms } from '@allmenning/sources/firms/testing'
import { startDemoUpstreams as frost } from '@allmenning/sources/frost/testing'
import {
  demoAddresses,
  startDemoUpstreams as geonorge,
  recordedAddresses,
  startFakeKartverketAdresser,
} from '@allmenning/sources/geonorge/testing'
import { demoPlaces, recordedPlaces, startFakeKartverketStedsnavn } from '@allmenning/sources/geonorge/testing'
import { areaAdresser } from '@allmenning/sources/firmafakta/testing'
import { startDemoUpstreams as kulturarv } from '@allmenning/sources/kulturarv/testing'
import { startDemoUpstreams as kystdatahuset } from '@allmenning/sources/kystdatahuset/testing'
import { startDemoUpstreams as lovdata } from '@allmenning/sources/lovdata/testing'
import { startDemoUpstreams as luftkvalitet } from '@allmenning/sources/luftkvalitet/testing'
import { startDemoUpstreams as naturbase } from '@allmenning/sources/naturbase/testing'
import { startDemoUpstreams as mattilsynet } from '@allmenning/sources/mattilsynet/testing'
import { startDemoUpstreams as nobil } from '@allmenning/sources/nobil/testing'
import { startDemoUpstreams as nve } from '@allmenning/sources/nve/testing'
import { startDemoUpstreams as nyheter, recordedAreaPlaces } from '@allmenning/sources/nyheter/testing'
import { startDemoUpstreams as poiNorge } from '@allmenning/sources/poi_norge/testing'
import { startDemoUpstreams as ssb } from '@allmenning/sources/ssb/testing'
import { startDemoUpstreams as statnett } from '@allmenning/sources/statnett/testing'
import { startDemoUpstreams as strompris } from '@allmenning/sources/strompris/testing'
import { startDemoUpstreams as utdanning } from '@allmenning/sources/utdanning/testing'
import { startDemoUpstreams as vegvesen } from '@allmenning/sources/vegvesen/testing'
import { startDemoUpstreams as weather } from '@allmenning/sources/weather/testing'

/** What every demo answer says of itself, in `_meta.demo_note` and `_provenance.demo`. */
export const demoNote =
  'Demo data: played on this machine from Allmenning\u2019s recorded fixtures, with dates moved to today. Not live, not complete, not for decisions.'

/** The key, client id or secret a demo upstream accepts wherever the real one wants a credential. */
const demoCredential = 'demo'

// By source id: each source's upstreams are pointed at its own players, so two sources that
// call one upstream (Kartverket's addresses) are each answered from their own fixtures.
const players: Record<string, () => Promise<DemoUpstreams>> = {
  ais,
  akvakultur,
  anleggsregisteret,
  arkivverket,
  artskart,
  avinor,
  banenor,
  badetemp,
  entur,
  firmafakta,
  firms,
  frost,
  geonorge,
  kulturarv,
  kystdatahuset,
  lovdata,
  luftkvalitet,
  naturbase,
  mattilsynet,
  nobil,
  nve,
  nyheter,
  poi_norge: poiNorge,
  ssb,
  statnett,
  strompris,
  utdanning,
  vegvesen,
  weather,
}

/**
 * The upstreams several sources call, each played once for all of them (the gateway takes one
 * base URL per upstream id): Kartverket's addresses, which geonorge searches, firmafakta
 * geocodes with, and nve, statnett and strompris place a point with, hold every address
 * their fixtures hold.
 */
const sharedPlayers: Record<string, () => Promise<FakeUpstream>> = {
  kartverket_adresser: () =>
    startFakeKartverketAdresser({
      addresses: [...recordedAddresses, ...demoAddresses, ...areaAdresser()],
      streetFallback: true,
    }),
  // Kartverket's municipality register, which artskart and anleggsregisteret place a municipality with.
  kartverket_kommuneinfo: () => startFakeKommuneinfo(),
  // Kartverket's place names, which geonorge searches and nyheter places the police log's areas with.
  kartverket_stedsnavn: () => startFakeKartverketStedsnavn([...recordedPlaces, ...demoPlaces, ...recordedAreaPlaces]),
}

/** The offline demo of the built-in sources, started. */
export interface BuiltInDemo {
  /**
   * Every built-in source as `builtInSources` makes it, each upstream pointed at its local
   * player, each credential `demo`, and each source marked demo (see `SourceDefinition.demo`).
   */
  sources: SourceDefinition[]
  /** Stops every player. */
  close(): Promise<void>
}

/**
 * Starts every built-in source's upstreams on 127.0.0.1, played from the sources' own
 * fixtures, and gives the sources pointed at them. Fails, with every player stopped, when a
 * built-in source or upstream has no player.
 *
 * @example
 * const demo = await startBuiltInDemo()
 * const gateway = createGateway({ sources: demo.sources })
 * // … and when done:
 * await demo.close()
 */
export async function startBuiltInDemo(): Promise<BuiltInDemo> {
  const ids = Object.keys(players)
  const sharedIds = Object.keys(sharedPlayers)
  const [started, sharedStarted] = await Promise.all([
    Promise.allSettled(ids.map((id) => players[id]!())),
    Promise.allSettled(sharedIds.map((id) => sharedPlayers[id]!())),
  ])
  const played = new Map<string, DemoUpstreams>()
  started.forEach((outcome, i) => {
    if (outcome.status === 'fulfilled') played.set(ids[i]!, outcome.value)
  })
  const shared: Record<string, FakeUpstream> = {}
  sharedStarted.forEach((outcome, i) => {
    if (outcome.status === 'fulfilled') shared[sharedIds[i]!] = outcome.value
  })
  const close = async () => {
    await Promise.all([
      ...[...played.values()].map((upstreams) => upstreams.close()),
      ...Object.values(shared).map((fake) => fake.close()),
    ])
  }
  try {
    const failed = [...started, ...sharedStarted].find((outcome) => outcome.status === 'rejected')
    if (failed) throw failed.reason
    // Every credential a built-in source lacks without one: the players take `demo` for each.
    const credentials: Record<string, string> = {}
    for (const source of builtInSources({}))
      for (const { configure } of source.notConfigured ?? []) credentials[configure] = demoCredential
    const sources = builtInSources(credentials).map((source) => {
      const fakes = {
        ...played.get(source.id)?.fakes,
        ...pick(
          shared,
          source.upstreams.map((upstream) => upstream.id),
        ),
      }
      // Never a real upstream behind a demo answer.
      const unplayed = source.upstreams.filter((upstream) => !fakes[upstream.id]).map((upstream) => upstream.id)
      if (unplayed.length > 0)
        throw new Error(`The demo has no player for ${source.id}'s upstream ${unplayed.join(', ')}`)
      const overrides = Object.fromEntries(Object.entries(fakes).map(([id, fake]) => [id, { baseUrl: fake.baseUrl }]))
      return { ...overrideUpstreams(source, overrides), demo: { note: demoNote } }
    })
    return { sources, close }
  } catch (error) {
    await close()
    throw error
  }
}

const pick = <T>(record: Record<string, T>, keys: readonly string[]): Record<string, T> =>
  Object.fromEntries(Object.entries(record).filter(([key]) => keys.includes(key)))
