import { describe, expect, it } from 'vitest'
import { findStation, stationOfCall, STATIONS } from './stations.js'

describe('the station table', () => {
  it('has every station once, with a position in Norway or its Swedish border lines', () => {
    expect(STATIONS.length).toBeGreaterThan(360)
    expect(new Set(STATIONS.map((s) => s.code)).size).toBe(STATIONS.length)
    for (const s of STATIONS) {
      expect(s.lat, s.code).toBeGreaterThan(57)
      expect(s.lat, s.code).toBeLessThan(72)
      expect(s.lon, s.code).toBeGreaterThan(4)
      expect(s.lon, s.code).toBeLessThan(32)
    }
  })

  it("finds the public gateway's clients' stations by code in any case, name or NSR id", () => {
    expect(['OSL', 'NTH', 'SKØ', 'BR', 'ALB'].map((c) => findStation(c)?.name)).toEqual([
      'Oslo S',
      'Nationaltheatret',
      'Skøyen',
      'Bryn',
      'Alnabru godsterminal',
    ])
    expect(findStation('skø')?.code).toBe('SKØ')
    expect(findStation('Lillestrøm stasjon')?.code).toBe('LLS')
    expect(findStation('lillestrom')?.code).toBe('LLS')
    expect(findStation('NSR:StopPlace:337')?.code).toBe('OSL')
    expect(findStation('Atlantis')).toBeUndefined()
  })

  it('places a call by its code, or by its name where an NSR quay stands instead', () => {
    expect(stationOfCall('OSL', null)?.code).toBe('OSL')
    expect(stationOfCall('NSR:Quay:571', 'Oslo S')?.code).toBe('OSL')
    expect(stationOfCall('NSR:Quay:1', 'Ukjent')).toBeUndefined()
  })
})
