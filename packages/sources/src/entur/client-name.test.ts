import { describe, expect, it } from 'vitest'
import { checkedClientName, enturClientName } from './client-name.js'

describe('enturClientName', () => {
  it('names the company by the contact in the User-Agent and the application by its product', () => {
    expect(enturClientName('allmenning/0.1.0 (+ops@example.no)')).toBe('example.no-allmenning')
    expect(enturClientName('allmenning/0.1.0 (+https://data.example.no/om)')).toBe('data.example.no-allmenning')
    expect(enturClientName('example.no-data/1.2 ops@example.no')).toBe('example.no-data')
    expect(enturClientName('MyApp/2.0 (+Ops@MyApp.io)')).toBe('myapp.io-myapp')
  })

  it('falls back to the product alone, as <product>-gateway, without a contact', () => {
    expect(enturClientName('allmenning/0.1.0')).toBe('allmenning-gateway')
    expect(enturClientName('')).toBe('allmenning-gateway')
  })

  it('never lets a character through that could break the header', () => {
    expect(enturClientName('a\r\nX-Evil: 1/0 (+ops@ex\r\nample.no)')).toMatch(/^[A-Za-z0-9._-]+$/)
  })

  it('checks a configured name against <company>-<application>', () => {
    expect(checkedClientName(' example_as-departures ')).toBe('example_as-departures')
    expect(() => checkedClientName('departures')).toThrow(/<company>-<application>/)
    expect(() => checkedClientName('example-dep\nartures')).toThrow(/clientName/)
  })
})
