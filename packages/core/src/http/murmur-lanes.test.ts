import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { takeWords, takeWordsInScript } from './murmur-lanes.js'

describe('takeWords', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.resetModules()
  })

  it('gives the lanes the script gives, for any words, over several of its pages', () => {
    for (const size of [0, 4, 8, 1000, 65532, 65536, 65540, 200_000]) {
      const bytes = new Uint8Array(randomBytes(size).buffer.slice(0, size))
      const start = { a: (size * 2654435761) | 0, b: ~size }
      const compiled = { ...start }
      const scripted = { ...start }
      takeWords(bytes, size >>> 2, compiled)
      takeWordsInScript(bytes, size >>> 2, scripted)
      expect(compiled, `${size} bytes`).toEqual(scripted)
      if (size > 0) expect(compiled, `${size} bytes`).not.toEqual(start)
    }
  })

  it('reads the words wherever they start in their buffer', () => {
    const whole = new Uint8Array(randomBytes(67).buffer.slice(0, 67))
    const shifted = whole.subarray(3)
    const copied = new Uint8Array(shifted)
    const fromShifted = { a: 5, b: 6 }
    const fromCopy = { a: 5, b: 6 }
    const scripted = { a: 5, b: 6 }
    takeWords(shifted, 16, fromShifted)
    takeWords(copied, 16, fromCopy)
    takeWordsInScript(shifted, 16, scripted)
    expect(fromShifted).toEqual(fromCopy)
    expect(scripted).toEqual(fromCopy)
  })

  it('takes only the words it is told to', () => {
    const bytes = new Uint8Array(randomBytes(64).buffer.slice(0, 64))
    const all = { a: 1, b: 2 }
    const half = { a: 1, b: 2 }
    takeWords(bytes, 16, all)
    takeWords(bytes, 8, half)
    const halfScripted = { a: 1, b: 2 }
    takeWordsInScript(bytes, 8, halfScripted)
    expect(half).toEqual(halfScripted)
    expect(half).not.toEqual(all)
  })

  it('compiles its module once, at the first words taken, not when imported', async () => {
    const compiled: unknown[] = []
    const host = (
      globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => object; Instance: unknown } }
    ).WebAssembly
    const RealModule = host.Module
    vi.resetModules()
    vi.stubGlobal('WebAssembly', {
      Module: function CountedModule(bytes: Uint8Array) {
        compiled.push(bytes)
        return new RealModule(bytes)
      },
      Instance: host.Instance,
    })
    const fresh = await import('./murmur-lanes.js')
    expect(compiled).toHaveLength(0)
    const bytes = new Uint8Array(randomBytes(4096).buffer.slice(0, 4096))
    const lanes = { a: 0, b: 0 }
    fresh.takeWords(bytes, 1024, lanes)
    fresh.takeWords(bytes, 1024, lanes)
    expect(compiled).toHaveLength(1)
    const scripted = { a: 0, b: 0 }
    takeWordsInScript(bytes, 1024, scripted)
    takeWordsInScript(bytes, 1024, scripted)
    expect(lanes).toEqual(scripted)
  })

  it('tags bodies the same where WebAssembly is not available (node --jitless)', async () => {
    const { weakEtag } = await import('./etag.js')
    const bodies = ['', 'abc', '{"navn":"Ålesund ø"}', 'x'.repeat(70_001), JSON.stringify({ data: [...'æøå😀'] })]
    const tags = bodies.map(weakEtag)
    vi.resetModules()
    vi.stubGlobal('WebAssembly', undefined)
    const scripted = await import('./etag.js')
    expect(bodies.map(scripted.weakEtag)).toEqual(tags)
    expect(scripted.weakEtag('abc')).toBe('W/"f4b0c781e200ed04"')
  })
})
