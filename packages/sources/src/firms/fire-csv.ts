import { UpstreamError } from '@allmenning/core/source'

/** One detection as this source keeps it. */
export interface FireDetection {
  lat: number
  lon: number
  acquiredAt: string | null
  satellite: string | null
  instrument: string | null
  confidence: 'low' | 'nominal' | 'high' | null
  confidencePct: number | null
  brightnessK: number | null
  frpMw: number | null
  daynight: 'day' | 'night' | null
}

const VIIRS_CONFIDENCE = { l: 'low', n: 'nominal', h: 'high' } as const

function number(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null
  const parsed = Number(value)
  return Number.isFinite(parsed) ? parsed : null
}

/**
 * The acquisition time as ISO 8601 UTC. FIRMS writes `acq_time` as HHMM but drops leading
 * zeros (`149` is 01:49), so it is left-padded to four digits.
 *
 * @example
 * acquisitionTime('2026-07-02', '149') // '2026-07-02T01:49:00Z'
 */
export function acquisitionTime(date: string | undefined, time: string | undefined): string | null {
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date.trim()) || !time || !/^\d{1,4}$/.test(time.trim())) return null
  const hhmm = time.trim().padStart(4, '0')
  const hours = Number(hhmm.slice(0, 2))
  const minutes = Number(hhmm.slice(2))
  if (hours > 23 || minutes > 59) return null
  return `${date.trim()}T${hhmm.slice(0, 2)}:${hhmm.slice(2)}:00Z`
}

/**
 * The confidence class: VIIRS gives l/n/h; MODIS a percentage, which FIRMS classes as low
 * below 30, nominal below 80 and high from 80.
 *
 * @example
 * confidenceOf('85') // { confidence: 'high', confidencePct: 85 }
 */
export function confidenceOf(value: string | undefined): Pick<FireDetection, 'confidence' | 'confidencePct'> {
  const raw = value?.trim().toLowerCase() ?? ''
  if (raw in VIIRS_CONFIDENCE)
    return { confidence: VIIRS_CONFIDENCE[raw as keyof typeof VIIRS_CONFIDENCE], confidencePct: null }
  const pct = number(raw)
  if (pct === null || pct < 0 || pct > 100) return { confidence: null, confidencePct: null }
  return { confidence: pct < 30 ? 'low' : pct < 80 ? 'nominal' : 'high', confidencePct: pct }
}

/**
 * Reads a FIRMS area CSV by its header names (VIIRS and MODIS name the brightness columns
 * differently, and some products add or drop columns). A header line alone means no fires. A
 * body without the latitude and longitude columns is not fire data, whatever its status said:
 * FIRMS answers some refusals as plain text.
 *
 * @example
 * parseFireCsv('latitude,longitude,acq_date,acq_time\n60.1,10.2,2026-07-02,149\n', firmsApi)
 */
export function parseFireCsv(
  text: string,
  upstream: { id: string; name: string },
): { detections: FireDetection[]; skipped: number } {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
  const header = (lines[0] ?? '').split(',').map((name) => name.trim().toLowerCase())
  const column = (name: string) => header.indexOf(name)
  const latIndex = column('latitude')
  const lonIndex = column('longitude')
  if (latIndex < 0 || lonIndex < 0) {
    const shown = text.trim().slice(0, 120)
    if (/exceeding allowed transaction limit/i.test(shown))
      throw new UpstreamError(upstream, 'status', `rate limited the gateway (${shown})`)
    throw new UpstreamError(
      upstream,
      'invalid_response',
      shown === ''
        ? 'answered an empty body where CSV was expected'
        : `answered something other than fire CSV: "${shown}"`,
    )
  }
  const at = (cells: string[], ...names: string[]) => {
    for (const name of names) {
      const index = column(name)
      if (index >= 0) return cells[index]?.trim()
    }
    return undefined
  }
  const detections: FireDetection[] = []
  let skipped = 0
  for (const line of lines.slice(1)) {
    const cells = line.split(',')
    const lat = number(cells[latIndex])
    const lon = number(cells[lonIndex])
    if (lat === null || lon === null || lat < -90 || lat > 90 || lon < -180 || lon > 180) {
      skipped++
      continue
    }
    const daynight = at(cells, 'daynight')?.toUpperCase()
    detections.push({
      lat,
      lon,
      acquiredAt: acquisitionTime(at(cells, 'acq_date'), at(cells, 'acq_time')),
      satellite: at(cells, 'satellite') || null,
      instrument: at(cells, 'instrument') || null,
      ...confidenceOf(at(cells, 'confidence')),
      brightnessK: number(at(cells, 'bright_ti4', 'brightness')),
      frpMw: number(at(cells, 'frp')),
      daynight: daynight === 'D' ? 'day' : daynight === 'N' ? 'night' : null,
    })
  }
  return { detections, skipped }
}
