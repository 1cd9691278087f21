import { readFileSync } from 'node:fs'
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url))

/** Statnett answers JSON as UTF-8 with this content type. */
const json = (body: Buffer | string): FakeReply => ({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body })

export const statnettPaths = {
  flow: '/PhysicalFlowMap/GetFlow',
  productionConsumption: '/ProductionConsumption/GetLatestDetailedOverview',
  powerSituation: '/ElspotPowerSituation/GetPowerSituations/',
} as const

/**
 * A local Statnett driftsdata server under `/restapi`, answering the recorded shapes:
 * numbers as strings with non-breaking spaces, "-" for missing, epoch-millisecond times.
 */
export async function startFakeStatnett(): Promise<FakeUpstream> {
  return startFakeUpstream(
    {
      [statnettPaths.flow]: () => json(fixture('physical-flow.json')),
      [statnettPaths.productionConsumption]: () => json(fixture('production-consumption.json')),
      [statnettPaths.powerSituation]: () => json(fixture('power-situations.json')),
    },
    '/restapi',
  )
}

export { json as statnettJson }
