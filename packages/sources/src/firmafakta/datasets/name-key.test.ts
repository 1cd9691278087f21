import { describe, expect, it } from 'vitest'
import { foldNorwegian } from '@allmenning/core/source'
import { nameKey, nameWords } from './name-key.js'

/** The words as the whole name folds, normalised: what every shortcut must agree with. */
const reference = (name: string) =>
  foldNorwegian(name.normalize('NFC'))
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')

describe('nameWords', () => {
  it('folds a name of Latin-1 characters exactly as the whole name folds', () => {
    for (let code = 0; code < 256; code++) {
      const name = `A${String.fromCharCode(code)}b ${String.fromCharCode(code)}`
      expect(nameWords(name), `U+${code.toString(16)}`).toEqual(reference(name))
    }
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) % 256
    for (let i = 0; i < 2000; i++) {
      const name = Array.from({ length: 1 + (i % 24) }, () => String.fromCharCode(next())).join('')
      expect(nameWords(name)).toEqual(reference(name))
    }
  })

  it('meets the keys users type, whatever the case and accents', () => {
    expect(nameWords('ØDEGÅRD ÅSE')).toEqual(['odegard', 'ase'])
    expect(nameKey('SÆTHER BJØRN ANDRÉ')).toBe(nameKey('André Bjørn Sæther'))
    expect(nameWords('Łukasz Żółć')).toEqual(reference('Łukasz Żółć'))
    expect(nameWords('NORDMANN  Ola-Johan')).toEqual(['nordmann', 'ola', 'johan'])
  })
})
