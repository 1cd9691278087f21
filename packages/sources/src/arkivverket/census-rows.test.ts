import { describe, expect, it } from 'vitest'
import { numberOf, residentsOf, textOf, toCensusProperty } from './census-rows.js'

describe('census rows from what Digitalarkivet sends', () => {
  it('reads numbers sent as text, and text sent as numbers', () => {
    expect(numberOf('61.1724')).toBe(61.1724)
    expect(numberOf('61,1724')).toBe(61.1724)
    expect(numberOf(' ')).toBeNull()
    expect(numberOf('n/a')).toBeNull()
    expect(textOf(132)).toBe('132')
    expect(textOf('  ')).toBeNull()
  })

  it('maps an older record: autoid, latitude/longitude as text, numbers as numbers', () => {
    const row = toCensusProperty(
      {
        autoid: 4711,
        gaardsnavn_gateadr: ' Nygaard ',
        gaardsnr: 17,
        bruksnr: '2',
        latitude: '61.1724',
        longitude: '6,5363',
        kildenavn: 'Folketelling 1910 for 1418 Balestrand herred',
      },
      false,
    )
    expect(row).toEqual({
      property_id: '4711',
      gaardsnavn_gateadr: 'Nygaard',
      gaardsnr: '17',
      bruksnr: '2',
      bruksnavn: null,
      fylke: null,
      kommune_sokn: null,
      source: 'Folketelling 1910 for 1418 Balestrand herred',
      coordinates: { lat: 61.1724, lon: 6.5363 },
      residents: null,
    })
  })

  it('gives no position for a missing, null, half or (0, 0) one', () => {
    for (const position of [
      {},
      { coordinates: null },
      { coordinates: { lat: 61.1, lon: null } },
      { coordinates: { lat: 0, lon: 0 } },
      { latitude: '95', longitude: '6' },
    ]) {
      expect(toCensusProperty({ efid: 'bf01036717000017', ...position }, false)!.coordinates).toBeNull()
    }
  })

  it('leaves out a record without an id, and a resident that is not a person record, without losing the place', () => {
    expect(toCensusProperty({ gaardsnavn_gateadr: 'Nygaard' }, false)).toBeNull()
    expect(toCensusProperty('not a record', false)).toBeNull()
    const row = toCensusProperty(
      {
        efid: 'bf01036717000017',
        persons: [
          { id: 'pf01036717000018', fornavn: 'Hermund I.', slektsnavn: 'Thue' },
          'odd',
          { fornavn: { first: 'x' } },
        ],
      },
      true,
    )
    expect(row!.residents).toEqual([
      {
        person_id: 'pf01036717000018',
        name: 'Hermund I. Thue',
        kjonn: null,
        familiestilling: null,
        sivilstand: null,
        yrke: null,
        fodselsaar: null,
        fodested: null,
      },
    ])
    expect(
      residentsOf([{ fornavn: 'Anna', patronymikon: 'Olsdatter', slektsnavn: 'Berg', kjonn: 'k' }])[0],
    ).toMatchObject({ name: 'Anna Olsdatter Berg', kjonn: 'k', person_id: null })
  })
})
