import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { startDemoKartverketAdresser } from '@allmenning/sources/statnett/testing'
import { startFakeHvakosterstrommen } from './fake-hvakosterstrommen.js'

/**
 * strompris's upstreams for the offline demo: hvakosterstrommen.no, which answers every day
 * from its first through today (tomorrow too after 13:00 Oslo time, as the real site
 * publishes) with the recorded days where there are fixtures and made-up days of the same
 * format otherwise; and Kartverket's address register, which places a point (Oslo's 59.91,
 * 10.75 among them) in its price area for `get_prices_at_point`.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createGateway({ sources: [strompris()], upstreams: { hvakosterstrommen: { baseUrl: demo.fakes.hvakosterstrommen!.baseUrl } } })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  const [prices, kartverket] = await Promise.all([startFakeHvakosterstrommen(), startDemoKartverketAdresser()])
  return demoUpstreams({ hvakosterstrommen: prices, kartverket_adresser: kartverket })
}
