import { fakeReply, fixtureFiles, startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'

const fixtures = fixtureFiles(new URL('./fixtures/', import.meta.url))

/** Statnett answers JSON as UTF-8 with this content type; the fixture bytes go out unchanged. */
const json = (body: Buffer | string): FakeReply =>
  typeof body === 'string' ? fakeReply.json(body) : fakeReply.bytes(body, 'application/json; charset=utf-8')

export const statnettPaths = {
  flow: '/PhysicalFlowMap/GetFlow',
  productionConsumption: '/ProductionConsumption/GetLatestDetailedOverview',
  powerSituation: '/ElspotPowerSituation/GetPowerSituations/',
} as const

/**
 * A local Statnett driftsdata server under `/restapi`, answering the recorded shapes:
 * numbers as strings with non-breaking spaces, "-" for missing, epoch-millisecond times.
 *
 * @example
 * const fake = await startFakeStatnett()
 * createTestGateway({ sources: statnett(), upstreams: { statnett: fake } })
 */
export async function startFakeStatnett(): Promise<FakeUpstream> {
  return startFakeUpstream(
    {
      [statnettPaths.flow]: () => json(fixtures.bytes('physical-flow.json')),
      [statnettPaths.productionConsumption]: () => json(fixtures.bytes('production-consumption.json')),
      [statnettPaths.powerSituation]: () => json(fixtures.bytes('power-situations.json')),
    },
    { prefix: '/restapi' },
  )
}

export { json as statnettJson }
