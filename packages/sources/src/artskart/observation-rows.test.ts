import { describe, expect, it } from 'vitest'
import { collectedDate, parseDecimal, placeObservation } from './observation-rows.js'
import { boxAround, inBox, mercatorPolygon, webMercator } from './search-area.js'

const oslo = { south: 59.809418, west: 10.489131, north: 60.135418, east: 10.951338 }

describe('parseDecimal', () => {
  it.each([
    ['59,91234', 59.91234],
    ['59.91234', 59.91234],
    [' 10,5 ', 10.5],
    ['-8,25', -8.25],
    [11.2, 11.2],
    ['0', 0],
  ])('reads %j as %j', (value, expected) => expect(parseDecimal(value)).toBe(expected))

  it.each([
    [''],
    ['59,9,1'],
    ['59.9.1'],
    ['1e3'],
    ['NaN'],
    ['ca 59'],
    [null],
    [undefined],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
  ])('reads %j as nothing', (value) => {
    expect(parseDecimal(value)).toBeNull()
  })
})

describe('collectedDate', () => {
  it.each([
    ['07.05.2026', '2026-05-07'],
    ['7.5.2026', '2026-05-07'],
    ['02.05.2026 00:00:00', '2026-05-02'],
    ['2026-05-07T10:12:00', '2026-05-07'],
    ['31.02.2026', null],
    ['2026', null],
    ['', null],
    [null, null],
  ])('reads %j as %j', (value, expected) => expect(collectedDate(value)).toBe(expected))
})

describe('placeObservation', () => {
  it('keeps a position inside the box as it is', () => {
    expect(placeObservation({ Latitude: '59,91', Longitude: '10,75' }, oslo)).toEqual({
      position: { lat: 59.91, lon: 10.75 },
      note: null,
    })
  })

  it('swaps latitude and longitude back when only the swapped pair lies in the box', () => {
    const placed = placeObservation({ Latitude: '10,75', Longitude: '59,91' }, oslo)
    expect(placed).toMatchObject({ position: { lat: 59.91, lon: 10.75 } })
    expect(placed.position && 'note' in placed && placed.note).toMatch(/swapped back/)
  })

  it.each([
    ['(0, 0)', { Latitude: '0', Longitude: '0' }],
    ['empty strings', { Latitude: '', Longitude: '' }],
    ['nothing', { Latitude: null, Longitude: undefined }],
    ['a latitude out of range', { Latitude: '159,9', Longitude: '10,75' }],
    ['a position far from the box', { Latitude: '63,43', Longitude: '10,39' }],
    ['one coordinate missing', { Latitude: '59,91', Longitude: null }],
  ])('gives no usable position for %s', (_name, row) => {
    expect(placeObservation(row, oslo)).toEqual({ position: null, problem: 'no_usable_position' })
  })

  it('takes a position just outside the box (a footprint centroid) as in it', () => {
    expect(placeObservation({ Latitude: '59,805', Longitude: '10,75' }, oslo).position).toEqual({
      lat: 59.805,
      lon: 10.75,
    })
  })
})

describe('the search area', () => {
  it('projects to Web Mercator metres as EPSG:3857 does', () => {
    const [x, y] = webMercator({ lat: 59.91, lon: 10.75 })
    expect(x).toBeCloseTo(1_196_684.5, 0)
    expect(y).toBeCloseTo(8_379_727.6, 0)
    const [x0, y0] = webMercator({ lat: 0, lon: 0 })
    expect(x0).toBe(0)
    expect(y0).toBeCloseTo(0, 6)
  })

  it('writes a closed polygon anticlockwise from the south-west corner', () => {
    const wkt = mercatorPolygon(oslo)
    const points = /^POLYGON\(\((.+)\)\)$/.exec(wkt)![1]!.split(',')
    expect(points).toHaveLength(5)
    expect(points[0]).toBe(points[4])
    const [sw, se, ne] = points.map((p) => p.split(' ').map(Number))
    expect(se![0]).toBeGreaterThan(sw![0]!)
    expect(ne![1]).toBeGreaterThan(se![1]!)
  })

  it('holds the whole circle in the box around a point', () => {
    const box = boxAround({ lat: 59.91, lon: 10.75 }, 1)
    expect(inBox(box, { lat: 59.91 + 0.0089, lon: 10.75 })).toBe(true)
    expect(inBox(box, { lat: 59.91, lon: 10.75 + 0.0178 })).toBe(true)
    expect(inBox(box, { lat: 59.91 + 0.0095, lon: 10.75 })).toBe(false)
  })
})
