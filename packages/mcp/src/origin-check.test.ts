import { describe, expect, it } from 'vitest'
import { createOriginCheck } from './origin-check.js'

const byDefault = createOriginCheck({})
const check = (origin: string | undefined, host: string | undefined, mount = '') => byDefault({ origin, host, mount })

describe('createOriginCheck', () => {
  it('takes a same-origin page only where the Host cannot be a rebound name', () => {
    expect(check('http://LOCALHOST:3000', 'localhost:3000')).toBeUndefined()
    expect(check('http://192.168.1.20:8080', '192.168.1.20:8080')).toBeUndefined()
    // The browser reached an IP it wrote in hex as the same address.
    expect(check('http://0x7f.0.0.1:3000', '127.0.0.1:3000')).toBeUndefined()
    expect(check('http://gateway.intern:3000', 'gateway.intern:3000')).toMatch(
      /Origin http:\/\/gateway.intern:3000 is not allowed/,
    )
    expect(check('http://localhost.evil.example:3000', 'localhost.evil.example:3000')).toBeDefined()
  })

  it('refuses a browser request whose Host is missing or not a host at all', () => {
    for (const host of [
      undefined,
      '',
      '[::1',
      'a@localhost:3000',
      'localhost:3000/x',
      'localhost:3000?',
      'local host',
    ]) {
      expect(check('http://localhost:3000', host), String(host)).toBeDefined()
    }
  })

  it('takes the origin of an absolute mount point, and nothing from a relative one', () => {
    expect(check('https://data.example.no', 'internal', 'https://data.example.no/data')).toBeUndefined()
    expect(check('https://data.example.no', 'internal', '/data')).toBeDefined()
  })

  it('checks every Host against allowedHosts, port aside, and cuts what it quotes', () => {
    const hosts = createOriginCheck({ allowedHosts: ['Data.Example.no'] })
    expect(hosts({ origin: undefined, host: 'data.example.no:8443', mount: '' })).toBeUndefined()
    expect(hosts({ origin: undefined, host: `${'a'.repeat(5000)}.example`, mount: '' })!.length).toBeLessThan(200)
    expect(hosts({ origin: undefined, host: undefined, mount: '' })).toBeDefined()
  })
})
