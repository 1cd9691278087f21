import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UpstreamError } from '@allmenning/core/source'
import { testUpstreamClient, type FakeUpstream } from '@allmenning/core/testing'
import {
  createMunicipalityLookup,
  kartverketKommuneinfo,
  municipalityKey,
  municipalityNumberOf,
  parseMunicipality,
  resolveMunicipality,
} from './kommuneinfo.js'
import { kommuneinfoFixtures, startFakeKommuneinfo } from './testing/fake-kommuneinfo.js'

let fake: FakeUpstream
beforeAll(async () => {
  fake = await startFakeKommuneinfo()
})
afterAll(() => fake.close())

describe('municipality names and numbers', () => {
  it.each([
    ['OSLO KOMMUNE', 'oslo'],
    ['Aurskog Høland', 'aurskogholand'],
    ['Aurskog-Høland', 'aurskogholand'],
    ['Deatnu - Tana', 'deatnutana'],
    ['Bærum', 'baerum'],
  ])('folds %j to %j', (name, key) => expect(municipalityKey(name)).toBe(key))

  it('writes a number with four digits and leaves a name alone', () => {
    expect(municipalityNumberOf('301')).toBe('0301')
    expect(municipalityNumberOf('4601')).toBe('4601')
    expect(municipalityNumberOf('Oslo')).toBeUndefined()
    expect(municipalityNumberOf('12')).toBeUndefined()
  })
})

describe('parseMunicipality', () => {
  it('reads names, county and the bounding box in degrees', () => {
    const tana = parseMunicipality(JSON.parse(kommuneinfoFixtures['5636']!), kartverketKommuneinfo)
    expect(tana).toEqual({
      number: '5636',
      name: 'Tana',
      names: ['Tana', 'Deatnu-Tana', 'Deatnu'],
      county: 'Finnmark',
      countyNumber: '56',
      box: { south: 69.713206, west: 27.356021, north: 70.706919, east: 29.101734 },
      point: { lat: 70.19783, lon: 28.165072 },
    })
  })

  it('gives no box rather than a wrong one when the box is not in degrees', () => {
    const body = JSON.parse(kommuneinfoFixtures['0301']!)
    body.avgrensningsboks.crs.properties.name = 'EPSG:25833'
    body.avgrensningsboks.coordinates = [
      [
        [590000, 6630000],
        [610000, 6660000],
      ],
    ]
    expect(parseMunicipality(body, kartverketKommuneinfo).box).toBeNull()
  })

  it('is a 502 naming Kartverket for a body of another shape', () => {
    expect(() => parseMunicipality({ message: 'oops' }, kartverketKommuneinfo)).toThrow(UpstreamError)
    expect(() => parseMunicipality({ message: 'oops' }, kartverketKommuneinfo)).toThrow(
      /^Upstream Kartverket kommuneinfo \(kartverket_kommuneinfo\) /,
    )
  })
})

describe('resolveMunicipality', () => {
  const client = () => testUpstreamClient(kartverketKommuneinfo, fake.baseUrl)

  it('finds a municipality by number and by any of its names, each asked once', async () => {
    const lookup = createMunicipalityLookup()
    const before = fake.requests.length
    expect((await resolveMunicipality(lookup, client(), '0301')).name).toBe('Oslo')
    expect((await resolveMunicipality(lookup, client(), 'oslo')).number).toBe('0301')
    expect((await resolveMunicipality(lookup, client(), 'Oslo')).number).toBe('0301')
    expect((await resolveMunicipality(lookup, client(), 'Tana')).number).toBe('5636')
    // /kommuner/0301, /sok for "oslo", /sok and /kommuner/5636 for Tana.
    expect(fake.requests.length - before).toBe(4)
  })

  it('keeps only exact names from a search that also finds name starts', async () => {
    // The fake's search, like one of name starts, finds Bergen for "Berg": not the name asked for.
    await expect(resolveMunicipality(createMunicipalityLookup(), client(), 'Berg')).rejects.toMatchObject({
      status: 404,
    })
  })

  it('is a 404 for an unknown number or name and a 400 for a name two municipalities share', async () => {
    const lookup = createMunicipalityLookup()
    await expect(resolveMunicipality(lookup, client(), '0399')).rejects.toMatchObject({
      status: 404,
      code: 'entity_not_found',
    })
    await expect(resolveMunicipality(lookup, client(), 'Atlantis')).rejects.toMatchObject({ status: 404 })
    await expect(resolveMunicipality(lookup, client(), 'Herøy')).rejects.toMatchObject({
      status: 400,
      code: 'invalid_parameter',
    })
  })
})
