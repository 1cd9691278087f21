import { readFileSync } from 'node:fs'
import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { FAKE_BARENTSWATCH_CLIENT, latestCombinedFixture, startFakeBarentswatch } from './fake-barentswatch.js'

/** The BarentsWatch client the demo's identity service accepts: `demo` as id and secret. */
export const DEMO_BARENTSWATCH_CLIENT = { clientId: 'demo', clientSecret: 'demo' }

type CombinedRecord = Record<string, unknown> & { msgtime?: unknown; eta?: unknown }

/**
 * The demo's vessels: the recorded snapshot (Oslo and Bergen, with its quirks) and more
 * written for the demo at Oslo's container and oil harbours, Stavanger, Trondheim, Tromsø,
 * Kristiansand, Bodø and Ålesund, in the same Full model.
 */
const records = [
  ...(JSON.parse(latestCombinedFixture.toString('utf8')) as CombinedRecord[]),
  ...(JSON.parse(
    readFileSync(new URL('./fixtures/latest-combined-demo.json', import.meta.url), 'utf8'),
  ) as CombinedRecord[]),
]

const MSGTIME = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?\+00:00$/
const secondsOf = (msgtime: unknown) => {
  const match = typeof msgtime === 'string' ? MSGTIME.exec(msgtime) : null
  return match ? Date.parse(`${match[1]}Z`) : Number.NaN
}
/** The newest report of the recording; the demo moves it to a few seconds ago. */
const RECORDED_NEWEST = Math.max(...records.map((record) => secondsOf(record.msgtime)).filter(Number.isFinite))

/** A msgtime moved by `shiftMs`, written as BarentsWatch writes it (fractional digits kept). */
function movedMsgtime(msgtime: unknown, shiftMs: number): unknown {
  const match = typeof msgtime === 'string' ? MSGTIME.exec(msgtime) : null
  if (!match) return msgtime
  return `${new Date(Date.parse(`${match[1]}Z`) + shiftMs).toISOString().slice(0, 19)}${match[2] ?? ''}+00:00`
}

/** An AIS ETA (`MMDDHHmm`, UTC, no year) moved by `shiftMs`; AIS's "not available" values stay as they are. */
function movedEta(eta: unknown, shiftMs: number): unknown {
  const match = typeof eta === 'string' ? /^(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(eta) : null
  if (!match) return eta
  const [month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number]
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return eta
  const year = new Date(RECORDED_NEWEST).getUTCFullYear()
  const moved = new Date(Date.UTC(year, month - 1, day, hour, minute) + shiftMs).toISOString()
  return `${moved.slice(5, 7)}${moved.slice(8, 10)}${moved.slice(11, 13)}${moved.slice(14, 16)}`
}

/**
 * The demo snapshot as BarentsWatch would send it now: every report moved so that the newest
 * is five seconds old, and each ETA by as much.
 *
 * @example
 * JSON.parse(demoSnapshot(Date.now()))[0].msgtime // a few seconds ago
 */
export function demoSnapshot(now: number): string {
  const shiftMs = Math.floor(now / 1000) * 1000 - 5000 - RECORDED_NEWEST
  const moved = records.map((record) => ({
    ...record,
    msgtime: movedMsgtime(record.msgtime, shiftMs),
    eta: movedEta(record.eta, shiftMs),
  }))
  return JSON.stringify(moved)
}

/**
 * The `ais` source's upstreams for the offline demo: BarentsWatch's identity service, which
 * issues tokens to the client `demo`/`demo` (and to the tests' client), and its AIS API,
 * answering the recorded and demo vessels with their reports moved to now.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createTestGateway({ sources: ais(DEMO_BARENTSWATCH_CLIENT), upstreams: demo.fakes })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  const bw = await startFakeBarentswatch({
    clients: [DEMO_BARENTSWATCH_CLIENT, FAKE_BARENTSWATCH_CLIENT],
    snapshot: () => demoSnapshot(Date.now()),
  })
  return demoUpstreams({ barentswatch_id: bw.id, barentswatch_ais: bw.ais })
}
