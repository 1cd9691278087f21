import { readFileSync } from 'node:fs'
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'

/** The paths of kystdatahuset.no/ws the fake serves. */
export const kystdatahusetPaths = { locations: '/api/location/norway/all/geojson' } as const

/**
 * The location register fixture: compact GeoJSON in UTF-8, with the register's quirks (points
 * at (0, 0), a feature without geometry, a location without a name, locations without a code).
 */
export const locationRegisterFixture = readFileSync(new URL('./fixtures/location-norway-all.geojson', import.meta.url))

/** Kystdatahuset answers JSON as ASP.NET does. */
export const kystdatahusetJson = (body: Buffer | string): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body,
})

/**
 * A local Kystdatahuset under `/ws`, answering the location register.
 *
 * @example
 * const fake = await startFakeKystdatahuset()
 * createGateway({ sources: [kystdatahuset()], upstreams: { kystdatahuset: { baseUrl: fake.baseUrl } } })
 */
export async function startFakeKystdatahuset(): Promise<FakeUpstream> {
  return startFakeUpstream({ [kystdatahusetPaths.locations]: () => kystdatahusetJson(locationRegisterFixture) }, '/ws')
}
