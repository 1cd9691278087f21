import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import type { FakeUpstream } from '@allmenning/core/testing'
import { builtInSources } from './built-in-sources.js'
import {
  FAKE_BARENTSWATCH_CLIENT,
  startFakeBarentswatch,
  type FakeBarentswatch,
} from './ais/testing/fake-barentswatch.js'
import { FAKE_FIRMS_KEY, startFakeFirms } from './firms/testing/fake-firms.js'
import { FAKE_NOBIL_KEY, startFakeNobil } from './nobil/testing/fake-nobil.js'

let nobilFake: FakeUpstream
let firmsFake: FakeUpstream
let bw: FakeBarentswatch

beforeAll(async () => {
  ;[nobilFake, firmsFake, bw] = await Promise.all([startFakeNobil(), startFakeFirms(), startFakeBarentswatch()])
})
afterAll(() => Promise.all([nobilFake.close(), firmsFake.close(), bw.close()]))

const upstreams = () => ({
  ALLMENNING_UPSTREAM_NOBIL: nobilFake.baseUrl,
  ALLMENNING_UPSTREAM_FIRMS: firmsFake.baseUrl,
  ALLMENNING_UPSTREAM_BARENTSWATCH_ID: bw.id.baseUrl,
  ALLMENNING_UPSTREAM_BARENTSWATCH_AIS: bw.ais.baseUrl,
})
const keyed = [
  ['nobil/find_charging_stations', 'lat=59.91&lon=10.75'],
  ['firms/find_fire_detections', 'lat=58.334&lon=6.299'],
  ['ais/find_vessels_nearby', 'lat=59.905&lon=10.72'],
] as const
const call = (g: Gateway, path: string, query: string) =>
  g.handle({ method: 'GET', path: `/api/v1/kilder/${path}`, query, headers: {} })

describe('builtInSources and the upstreams that need a key', () => {
  it('reads each key from its variable', async () => {
    const g = createGateway({
      sources: builtInSources({
        ...upstreams(),
        ALLMENNING_NOBIL_API_KEY: FAKE_NOBIL_KEY,
        ALLMENNING_FIRMS_MAP_KEY: FAKE_FIRMS_KEY,
        ALLMENNING_BARENTSWATCH_CLIENT_ID: FAKE_BARENTSWATCH_CLIENT.clientId,
        ALLMENNING_BARENTSWATCH_CLIENT_SECRET: FAKE_BARENTSWATCH_CLIENT.clientSecret,
      }),
      onError: () => {},
    })
    for (const [path, query] of keyed) {
      const res = await call(g, path, query)
      expect([path, res.status]).toEqual([path, 200])
    }
  })

  it('serves the sources without keys too, each answering which variable to set', async () => {
    const g = createGateway({ sources: builtInSources(upstreams()), onError: () => {} })
    const variables: string[] = []
    for (const [path, query] of keyed) {
      const res = await call(g, path, query)
      const error = JSON.parse(res.body!).error
      expect([path, res.status, error.code]).toEqual([path, 502, 'upstream_not_configured'])
      variables.push(...(error.message.match(/ALLMENNING_[A-Z_]+/g) as string[]))
    }
    expect(variables).toEqual([
      'ALLMENNING_NOBIL_API_KEY',
      'ALLMENNING_FIRMS_MAP_KEY',
      'ALLMENNING_BARENTSWATCH_CLIENT_ID',
      'ALLMENNING_BARENTSWATCH_CLIENT_SECRET',
    ])
    const index = JSON.parse((await g.handle({ method: 'GET', path: '/api/v1/kilder', query: '', headers: {} })).body!)
    expect(JSON.stringify(index)).toContain('find_vessels_nearby')
  })
})
