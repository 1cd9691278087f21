import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import { geonorge, luftkvalitet, weather } from '@allmenning/sources'
import type { FakeUpstream } from '@allmenning/core/testing'
import { startFakeKartverketAdresser, startFakeKartverketStedsnavn } from '@allmenning/sources/geonorge/testing'
import { startFakeMetAirquality } from '@allmenning/sources/luftkvalitet/testing'
import { startFakeMetLocationforecast } from '@allmenning/sources/weather/testing'

// The six place fields the geonorge, weather and luftkvalitet sources fill, through a bundle
// of /steder/{lat}/{lon}, against local stand-ins of Kartverket and MET.

let fakes: FakeUpstream[]
let gateway: Gateway

beforeAll(async () => {
  fakes = await Promise.all([
    startFakeKartverketAdresser(),
    startFakeKartverketStedsnavn(),
    startFakeMetLocationforecast(),
    startFakeMetAirquality(),
  ])
  const [adresser, stedsnavn, locationforecast, airquality] = fakes as [
    FakeUpstream,
    FakeUpstream,
    FakeUpstream,
    FakeUpstream,
  ]
  gateway = createGateway({
    sources: [geonorge(), weather(), luftkvalitet()],
    upstreams: {
      kartverket_adresser: { baseUrl: adresser.baseUrl },
      kartverket_stedsnavn: { baseUrl: stedsnavn.baseUrl },
      met_locationforecast: { baseUrl: locationforecast.baseUrl },
      met_airquality: { baseUrl: airquality.baseUrl },
    },
    upstream: { userAgent: 'allmenning-test/1.0 ops@example.no' },
    onError: () => {},
  })
})
afterAll(() => Promise.all(fakes.map((fake) => fake.close())))

describe('a place bundle from the built-in place sources', () => {
  it('fills addresses, place names, weather and air quality for a point, each credited to its publisher', async () => {
    const res = await gateway.handle({
      method: 'GET',
      path: '/api/v1/steder/59.9112/10.7339',
      query: 'fields=addresses,place_names,current_weather,forecast,air_stations,air_forecast',
      headers: {},
    })
    const json = JSON.parse(res.body!)
    expect(res.status).toBe(200)
    expect(json.summary).toEqual({ ok: 6, stale: 0, failed: 0 })
    expect(json.fields.addresses).toMatchObject({
      status: 'ok',
      source: 'geonorge',
      operation: 'find_addresses_nearby',
    })
    expect(json.fields.addresses.data.addresses[0]).toMatchObject({
      address: 'Fridtjof Nansens plass 1',
      lat: 59.91196447093185,
      lon: 10.733642581390743,
    })
    expect(json.fields.place_names.data.places[0]).toMatchObject({ name: 'Rådhusplassen' })
    expect(json.fields.current_weather).toMatchObject({
      status: 'ok',
      source: 'weather',
      data: { temperature_c: -4.2, symbol: 'cloudy' },
    })
    expect(json.fields.forecast.data).toHaveLength(85)
    expect(json.fields.air_stations.data[0]).toMatchObject({ name: 'Bygdøy Alle' })
    expect(json.fields.air_forecast.data.location).toMatchObject({ name: 'Rådhuset' })
    expect(json.fields.addresses.attribution).toEqual([
      { upstream: 'kartverket_adresser', publisher: 'Kartverket (Norwegian Mapping Authority)', license: 'CC BY 4.0' },
    ])
    expect(json.fields.current_weather.attribution).toEqual([
      {
        upstream: 'met_locationforecast',
        publisher: 'MET Norway (Norwegian Meteorological Institute)',
        license: 'NLOD 2.0 / CC BY 4.0',
      },
    ])
  })
})
