/** Symbols that are one phrase, without precipitation. */
const PLAIN: Record<string, string> = {
  clearsky: 'Clear sky',
  fair: 'Fair',
  partlycloudy: 'Partly cloudy',
  cloudy: 'Cloudy',
  fog: 'Fog',
}

// MET writes "lights" before sleet and snow showers with thunder (lightssleetshowersandthunder), so both spellings are read.
const PRECIPITATION = /^(lights?|heavy)?(rain|sleet|snow)(showers)?(andthunder)?$/

/**
 * MET's weather symbol in English words, as the Yr legend says it: the `_day`, `_night` and
 * `_polartwilight` variants read the same. Clients of the public gateway show a text where they
 * have no icon (a Bergen client looks for `summary`); an unknown code is null rather than a guess.
 *
 * @example
 * symbolSummary('lightrainshowersandthunder_day') // 'Light rain showers and thunder'
 * symbolSummary('partlycloudy_night') // 'Partly cloudy'
 */
export function symbolSummary(symbol: string | null): string | null {
  if (symbol === null) return null
  const base = symbol.replace(/_(day|night|polartwilight)$/, '')
  const plain = PLAIN[base]
  if (plain !== undefined) return plain
  const match = PRECIPITATION.exec(base)
  if (!match) return null
  const [, strength, kind, showers, thunder] = match
  const words = [
    strength === undefined ? undefined : strength.startsWith('light') ? 'light' : 'heavy',
    kind,
    showers,
    thunder ? 'and thunder' : undefined,
  ]
  const text = words.filter((word) => word !== undefined).join(' ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}
