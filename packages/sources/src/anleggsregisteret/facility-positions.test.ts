import { describe, expect, it } from 'vitest'
import { FAR_KM, judgePositions, type RawPosition } from './facility-positions.js'

const oslo = (lat: number | null, lon: number | null): RawPosition => ({ lat, lon, group: 'oslo|oslo' })
const middle = [oslo(59.91, 10.75), oslo(59.93, 10.72), oslo(59.9, 10.78), oslo(59.95, 10.7)]

describe('judgePositions', () => {
  it('keeps positions near the middle of their municipality as the register gives them', () => {
    expect(judgePositions(middle).map((p) => p.quality)).toEqual(['register', 'register', 'register', 'register'])
    expect(judgePositions(middle)[0]).toEqual({ lat: 59.91, lon: 10.75, quality: 'register', note: null })
  })

  it.each([
    [-6, 4.75, 10.75],
    [6, 16.75, 10.75],
    [-12, -1.25, 10.75],
  ])('moves a longitude %i° off (wrong UTM zone) back', (_offset, given, expected) => {
    const [judged] = judgePositions([oslo(59.92, given), ...middle])
    expect(judged).toMatchObject({ lat: 59.92, lon: expected, quality: 'corrected_utm_zone' })
  })

  it('withholds a far position that no whole number of zones explains', () => {
    const [judged] = judgePositions([oslo(63.43, 10.39), ...middle])
    expect(judged).toMatchObject({ lat: null, lon: null, quality: 'implausible' })
    expect(judged!.note).toMatch(/km from the municipality's other facilities/)
  })

  it('keeps a position within the far limit even when it is not close', () => {
    // About 100 km north of the middle: a large municipality could reach that far.
    const [judged] = judgePositions([oslo(60.8, 10.75), ...middle])
    expect(judged!.quality).toBe('register')
    expect(FAR_KM).toBeGreaterThan(100)
  })

  it('withholds (0, 0), missing positions and the Oslo stand-ins', () => {
    const judged = judgePositions([
      oslo(0, 0),
      oslo(null, 10.7),
      oslo(59.917201, 10.727413),
      oslo(59.917112, 10.727424),
      oslo(Number.NaN, 10),
      ...middle,
    ])
    expect(judged.slice(0, 5).map((p) => [p.quality, p.lat, p.lon])).toEqual([
      ['missing', null, null],
      ['missing', null, null],
      ['placeholder', null, null],
      ['placeholder', null, null],
      ['missing', null, null],
    ])
  })

  it('does not judge a small municipality by its middle, only by Norway', () => {
    const judged = judgePositions([
      { lat: 66.0, lon: 12.3, group: 'heroy|nordland' },
      { lat: 62.3, lon: 5.6, group: 'heroy|nordland' },
      { lat: 10, lon: 10, group: 'heroy|nordland' },
    ])
    expect(judged.map((p) => p.quality)).toEqual(['register', 'register', 'implausible'])
    expect(judged[2]!.note).toMatch(/outside Norway/)
  })

  it('judges each municipality by its own facilities', () => {
    const bergen = (lat: number, lon: number): RawPosition => ({ lat, lon, group: 'bergen|vestland' })
    const judged = judgePositions([
      ...middle,
      bergen(60.39, 5.32),
      bergen(60.37, 5.35),
      bergen(60.3, 5.33),
      bergen(60.38, 10.75),
    ])
    expect(judged.slice(0, 7).every((p) => p.quality === 'register')).toBe(true)
    expect(judged[7]).toMatchObject({ quality: 'corrected_utm_zone', lon: 4.75 })
  })
})
