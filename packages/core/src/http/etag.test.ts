import { describe, expect, it } from 'vitest'
import { ifNoneMatchHits, weakEtag } from './etag.js'

describe('weakEtag', () => {
  it('is a weak tag of 16 hex digits, the same for the same body', () => {
    const body = JSON.stringify({ data: [{ from_area: 'NO2', to_area: 'DE', flow_mw: 1234.5 }] })
    expect(weakEtag(body)).toMatch(/^W\/"[0-9a-f]{16}"$/)
    expect(weakEtag(body)).toBe(weakEtag(`${body}`))
  })

  it('tells apart bodies that differ in one character, its place, or their length', () => {
    const base = JSON.stringify({ data: Array.from({ length: 40 }, (_, i) => ({ id: i, name: `Ålesund ${i}` })) })
    const bodies = new Set<string>()
    for (let at = 0; at < base.length; at += 7) {
      for (const unit of ['0', '1', 'x', 'Ø', '\u{1F600}']) bodies.add(base.slice(0, at) + unit + base.slice(at + 1))
    }
    for (let length = 0; length <= 200; length++) bodies.add(base.slice(0, length))
    const tags = new Set([...bodies].map(weakEtag))
    expect(bodies.size).toBeGreaterThan(1000)
    expect(tags.size).toBe(bodies.size)
  })

  it('gives the tags it gave before: stored answers keep theirs across versions', () => {
    expect(weakEtag('{"data":[{"from_area":"NO2","to_area":"DE","flow_mw":1234.5}],"navn":"Ålesund ø"}')).toBe(
      'W/"69571f07db8c24de"',
    )
    expect(weakEtag('')).toBe('W/"1ef2bd4006cf640e"')
    expect(weakEtag('abc')).toBe('W/"f4b0c781e200ed04"')
  })

  it('spreads tags over both halves', () => {
    const firsts = new Set<string>()
    const seconds = new Set<string>()
    for (let i = 0; i < 2000; i++) {
      const tag = weakEtag(`{"n":${i}}`)
      firsts.add(tag.slice(3, 11))
      seconds.add(tag.slice(11, 19))
    }
    expect(firsts.size).toBe(2000)
    expect(seconds.size).toBe(2000)
  })
})

describe('ifNoneMatchHits', () => {
  const etag = weakEtag('{"a":1}')
  it('matches by weak comparison, in a list or over several header lines, and *', () => {
    expect(ifNoneMatchHits(etag, etag)).toBe(true)
    expect(ifNoneMatchHits(etag.slice(2), etag)).toBe(true)
    expect(ifNoneMatchHits(`W/"other", ${etag}`, etag)).toBe(true)
    expect(ifNoneMatchHits(['W/"other"', etag], etag)).toBe(true)
    expect(ifNoneMatchHits(' * ', etag)).toBe(true)
  })
  it('does not match other tags or no header', () => {
    expect(ifNoneMatchHits('W/"other"', etag)).toBe(false)
    expect(ifNoneMatchHits(undefined, etag)).toBe(false)
  })
})
