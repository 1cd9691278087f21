import { readFileSync } from 'node:fs'
import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { startDemoKartverketAdresser } from './demo-kartverket.js'
import { startFakeStatnett, statnettJson, statnettPaths } from './fake-statnett.js'

/** When the fixtures were recorded (epoch ms): every time in them is this one. */
const RECORDED_AT = 1771062744000

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')

/**
 * A fixture with its epoch-millisecond times (`MeasureDate`, `MeasuredAt`, `measuredAt`)
 * moved to the latest whole minute since the recording, so "the latest" figures are from
 * within the last minute, as Statnett's are; the seconds and the bytes around them stay.
 *
 * @example
 * shiftedToNow('{"MeasuredAt":1771062744000}', Date.parse('2026-11-28T10:00:30Z')) // '{"MeasuredAt":1795860024000}' (10:00:24)
 */
export function shiftedToNow(text: string, now: number): string {
  const shift = Math.floor((now - RECORDED_AT) / 60_000) * 60_000
  return text.replace(
    /("(?:MeasureDate|MeasuredAt|measuredAt)":)(\d{13})/g,
    (_all, key: string, ms: string) => `${key}${Number(ms) + shift}`,
  )
}

/**
 * Statnett's upstreams for the offline demo: the driftsdata API with its recorded flow map
 * and production overview moved to now (the power situations carry no time), and
 * Kartverket's address register, which places a point (Oslo's 59.91, 10.75 among them) in its
 * county and so in its price area for `get_price_area`.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createGateway({ sources: [statnett()], upstreams: { statnett: { baseUrl: demo.fakes.statnett!.baseUrl } } })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  const [statnett, kartverket] = await Promise.all([startFakeStatnett(), startDemoKartverketAdresser()])
  const flow = fixture('physical-flow.json')
  const overview = fixture('production-consumption.json')
  statnett.route(statnettPaths.flow, () => statnettJson(shiftedToNow(flow, Date.now())))
  statnett.route(statnettPaths.productionConsumption, () => statnettJson(shiftedToNow(overview, Date.now())))
  return demoUpstreams({ statnett, kartverket_adresser: kartverket })
}
