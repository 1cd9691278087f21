import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '@allmenning/core'
import { brregRoller } from './datasets/brreg-roller.js'
import { firmafakta } from './index.js'
import { rollerTotalbestand } from './testing/brreg-roller-fixtures.js'
import { startFakeBrreg, type FakeBrreg } from './testing/fake-brreg.js'
import { createMemoryDatasets, type MemoryDatasets } from './testing/loaded-datasets.js'

let brreg: FakeBrreg
let roles: MemoryDatasets
beforeAll(async () => {
  brreg = await startFakeBrreg()
  roles = createMemoryDatasets()
  await roles.load(brregRoller, [{ file: 'roller-totalbestand.json.gz', bytes: rollerTotalbestand() }], '2026-11-22')
})
afterAll(async () => {
  roles.close()
  await brreg.close()
})

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function search(datasets: MemoryDatasets | undefined, q: string): Promise<any> {
  const gateway = createGateway({
    sources: [firmafakta()],
    upstreams: { brreg: { baseUrl: brreg.baseUrl } },
    ...(datasets ? { datasets: datasets.store } : {}),
    onError: () => {},
  })
  const res = await gateway.handle({
    method: 'GET',
    path: '/api/v1/sok/alle',
    query: `q=${encodeURIComponent(q)}&mode=entities&limit=10`,
    headers: {},
  })
  return JSON.parse(res.body!)
}

describe('firmafakta entity search', () => {
  it('finds persons by name in the roles dataset, each linked to the roles of the unit they hold one in', async () => {
    const answer = await search(roles, 'Ola Nordmann')
    const persons = answer.results.filter((r: { type: string }) => r.type === 'person')
    expect(persons[0]).toMatchObject({
      type: 'person',
      name: 'OLA NORDMANN',
      description: 'Daglig leder/ adm.direktør in 912346234, born 1975',
      _links: { api: '/api/v1/kilder/firmafakta/roller_i_enhet?org_nr=912346234' },
    })
    expect(answer.coverage.firmafakta.status).toBe('ok')
  })

  it('still finds companies where the roles dataset is not loaded', async () => {
    const answer = await search(undefined, 'Sesam')
    expect(answer.coverage.firmafakta.status).toBe('ok')
    expect(answer.results[0]).toMatchObject({ type: 'organization', name: 'SESAM AS' })
    expect(answer.results.some((r: { type: string }) => r.type === 'person')).toBe(false)
  })

  it('says a company found by its number was deleted, and when', async () => {
    const answer = await search(undefined, '912346455')
    expect(answer.results[0]).toMatchObject({
      type: 'organization',
      name: 'TRESKO HANDEL AS',
      description: 'Aksjeselskap (removed from the register on 2025-06-30)',
    })
  })
})
