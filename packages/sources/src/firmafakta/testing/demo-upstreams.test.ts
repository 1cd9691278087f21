import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DemoUpstreams } from '@allmenning/core/testing'
import { createTestGateway, type TestGateway } from '@allmenning/core/testing'
import { firmafakta } from '../index.js'
import { startDemoUpstreams } from './demo-upstreams.js'

// The offline demo plays every live upstream of firmafakta (Brønnøysund's two registers and
// Kartverket's address API). The operations that read datasets are served by the demo's
// dataset store, not by these fakes, and are not asked here.

describe('firmafakta demo upstreams', () => {
  let demo: DemoUpstreams
  let gateway: TestGateway
  beforeAll(async () => {
    demo = await startDemoUpstreams()
    gateway = createTestGateway({ sources: firmafakta(), upstreams: demo.fakes })
  })
  afterAll(() => demo.close())
  const call = (operation: string, query: string) => gateway.call('firmafakta', operation, query)

  it('plays every upstream of the source', () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      firmafakta()
        .upstreams.map((u) => u.id)
        .sort(),
    )
  })

  it('finds companies by the names a demo user tries first', async () => {
    for (const [name, orgNr] of [
      ['Equinor', '923609016'],
      ['DNB', '984851006'],
      ['sesam', '976030788'],
    ]) {
      const { status, json } = await call('organisasjonsnummer_for_selskap', `company_name=${name}`)
      expect(status, name).toBe(200)
      expect(
        json.data.map((hit: { organisasjonsnummer: string }) => hit.organisasjonsnummer),
        name,
      ).toContain(orgNr)
    }
    const search = await gateway.get('/api/v1/sok/alle', { q: 'Equinor', mode: 'entities', sources: 'firmafakta' })
    expect(search.json.results[0]).toMatchObject({ type: 'organization', id: '923609016' })
  })

  it('answers the documented organisation numbers, and any other valid one with a recorded unit', async () => {
    for (const orgNr of ['976030788', '923609016', '912346021']) {
      const { status, json } = await call('selskapsdetaljer', `org_nr=${orgNr}`)
      expect(status, orgNr).toBe(200)
      expect(json.data.organisasjonsnummer).toBe(orgNr)
    }
    const other = await call('selskapsdetaljer', 'org_nr=987654325')
    expect(other.status).toBe(200)
    expect(other.json.data).toMatchObject({
      organisasjonsnummer: '987654325',
      navn: 'DEMOSELSKAP 987654325 AS',
      status: 'active',
    })
    // A sub-unit's number is still answered as the sub-unit.
    expect((await call('selskapsdetaljer', 'org_nr=812345737')).json.data.enhetstype).toBe('underenhet')
  })

  it('answers roles, sub-units and the last accounts with non-empty real-shaped data', async () => {
    for (const orgNr of ['976030788', '987654325']) {
      const roles = await call('roller_i_enhet', `org_nr=${orgNr}`)
      expect(roles.status, orgNr).toBe(200)
      expect(roles.json.data.rollegrupper.length, orgNr).toBeGreaterThan(0)
    }
    const branches = await call('underenheter_for_selskap', 'org_nr=912346021')
    expect(branches.status).toBe(200)
    expect(branches.json.data.length).toBeGreaterThan(0)
    for (const orgNr of ['976030788', '923609016', '987654325']) {
      const accounts = await call('get_company_last_financial_statement', `org_nr=${orgNr}`)
      expect(accounts.status, orgNr).toBe(200)
      expect(accounts.json.data.regnskapsperiode, orgNr).toBeTruthy()
    }
  })

  it('answers the company search for Oslo (0301) and the documented example', async () => {
    const oslo = await call('finn_selskaper', 'kommunenummer=0301')
    expect(oslo.status).toBe(200)
    expect(oslo.json.data.selskaper.map((s: { navn: string }) => s.navn)).toContain('DNB BANK ASA')
    const companies = await call('finn_selskaper', 'organisasjonsform=AS')
    expect(companies.json.data.selskaper.length).toBeGreaterThan(0)
  })

  it('answers the area search at the Oslo point with its default radius, and the documented example', async () => {
    const { status, json } = await call('finn_selskaper_i_omrade', 'lat=59.91&lon=10.75')
    expect(status).toBe(200)
    expect(json.data.companies.length).toBeGreaterThan(5)
    expect(json.data.companies[0]).toMatchObject({
      coordinates: { latitude: expect.any(Number), longitude: expect.any(Number) },
    })
    expect(json.data.companies.map((c: { navn: string }) => c.navn)).toContain('DNB BANK ASA')
    const example = await call('finn_selskaper_i_omrade', 'lat=59.913&lon=10.746&radius_km=1&min_employees=50')
    expect(example.json.data.companies.length).toBeGreaterThan(0)
    const place = await gateway.get('/api/v1/steder/59.91/10.75', { fields: 'companies' })
    expect(place.json.fields.companies).toMatchObject({
      status: 'ok',
      source: 'firmafakta',
      operation: 'finn_selskaper_i_omrade',
    })
    expect(gateway.errors).toEqual([])
  })
})
