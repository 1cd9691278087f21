/** One aquaculture site (lokalitet) as this source keeps it, whichever service it came from. */
export interface AquacultureSite {
  siteNr: string
  name: string | null
  holders: string | null
  municipality: string | null
  county: string | null
  status: string | null
  capacity: number | null
  capacityUnit: string | null
  species: string | null
  url: string | null
  lat: number
  lon: number
}

/**
 * A text value as registers send them: trimmed, with empty and absent alike as null; numbers
 * (a site number sent as a number) become their decimal text.
 *
 * @example
 * cleanText('  Laks ') // 'Laks'
 */
export function cleanText(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value !== 'string') return null
  const trimmed = value.trim()
  return trimmed === '' ? null : trimmed
}

/**
 * A number that may come as a number or as text with a decimal comma; null otherwise.
 *
 * @example
 * cleanNumber('3 120,5') // 3120.5
 */
export function cleanNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (typeof value !== 'string') return null
  const normalized = value.replace(/[\s\u00a0]/g, '').replace(',', '.')
  if (!/^-?\d+(\.\d+)?$/.test(normalized)) return null
  return Number(normalized)
}
