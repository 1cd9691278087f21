import { describe, expect, it } from 'vitest'
import { symbolSummary } from './symbol-summary.js'

describe('symbolSummary', () => {
  it('words the plain symbols, whatever the time of day', () => {
    expect(symbolSummary('clearsky_day')).toBe('Clear sky')
    expect(symbolSummary('partlycloudy_polartwilight')).toBe('Partly cloudy')
    expect(symbolSummary('cloudy')).toBe('Cloudy')
    expect(symbolSummary('fog')).toBe('Fog')
  })

  it('words precipitation by strength, kind, showers and thunder, MET’s "lights" spelling included', () => {
    expect(symbolSummary('lightrain')).toBe('Light rain')
    expect(symbolSummary('heavysnowshowers_night')).toBe('Heavy snow showers')
    expect(symbolSummary('sleetandthunder')).toBe('Sleet and thunder')
    expect(symbolSummary('lightssleetshowersandthunder_day')).toBe('Light sleet showers and thunder')
    expect(symbolSummary('rainshowers_day')).toBe('Rain showers')
  })

  it('is null for no symbol and for a code it does not know, rather than a guess', () => {
    expect(symbolSummary(null)).toBeNull()
    expect(symbolSummary('hail')).toBeNull()
    expect(symbolSummary('lightcloudy')).toBeNull()
  })
})
