import { readFileSync } from 'node:fs'
import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { osloDateTime } from '../../shared/oslo-time.js'
import { startFakeDatex } from './fake-datex.js'
import { startFakeTrafikkdata, trafikkdataPoints } from './fake-trafikkdata.js'

/** The DATEX username and password the demo's fake accepts. */
export const DEMO_DATEX_USERNAME = 'demo'
export const DEMO_DATEX_PASSWORD = 'demo'

/** The day the fixtures' counters last counted; in the demo they have counted up to the last hour. */
const RECORDED_LATEST_HOUR = '2026-11-25T06:00:00+01:00'

/** The documented example point (44656V72812, Ulven) and one more named after Oslo, beside the fixture's points. */
const demoPoints = JSON.parse(
  readFileSync(new URL('./fixtures/registration-points-demo.json', import.meta.url), 'utf8'),
) as typeof trafikkdataPoints

/** The points with a counter that counts now: their latest hour is the last whole hour. */
function countingUntilNow(points: typeof trafikkdataPoints, nowMs: number): typeof trafikkdataPoints {
  const lastHour = osloDateTime(Math.floor(nowMs / 3_600_000) * 3_600_000)
  return JSON.parse(
    JSON.stringify(points).replaceAll(`"volumeByHour":"${RECORDED_LATEST_HOUR}"`, `"volumeByHour":"${lastHour}"`),
  ) as typeof trafikkdataPoints
}

/**
 * The `vegvesen` source's upstreams played for the offline demo: trafikkdata with the
 * fixture's points plus the documented example point 44656V72812 and one named after Oslo,
 * volumes made up for any period (so the last 24 hours and today too), and the DATEX II server
 * with the fixture's situations moved to now, accepting the username and password `demo`.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createGateway({ sources: [vegvesen({ datexUsername: 'demo', datexPassword: 'demo' })], upstreams: { vegvesen_datex: { baseUrl: demo.fakes['vegvesen_datex']!.baseUrl } } })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  const [trafikkdata, datex] = await Promise.all([
    startFakeTrafikkdata({ points: countingUntilNow([...trafikkdataPoints, ...demoPoints], Date.now()) }),
    startFakeDatex({ username: DEMO_DATEX_USERNAME, password: DEMO_DATEX_PASSWORD }),
  ])
  return demoUpstreams({ vegvesen_trafikkdata: trafikkdata, vegvesen_datex: datex })
}
