import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import type { DatasetReader } from '@allmenning/core/source'
import { addressKey } from '../address-key.js'
import { ADDRESS_POINT_COLUMNS } from '../datasets/address-points-file.js'

/** Kartverket's address API, the default of {@link GeocodeOptions.baseUrl}. */
export const KARTVERKET_ADDRESS_API = 'https://ws.geonorge.no/adresser/v1'

/** How far one run has come. */
export interface GeocodeProgress {
  /** Addresses to look up in this run (after the budget). */
  total: number
  /** Addresses due in all (not in the file, or not found long enough ago), before the budget. */
  due: number
  done: number
  placed: number
  notFound: number
  failed: number
}

/** What one run did. */
export interface GeocodeSummary extends GeocodeProgress {
  /** Distinct addresses of the loaded establishments. */
  addresses: number
  /** Already in the file (and not due for another look), so not asked again. */
  known: number
  /** Left for a later run: beyond this run's request budget, or failed. */
  remaining: number
  /** What the last failed request got, naming Kartverket's API (`…answered 503 for /sok`), when one failed. */
  lastError?: string
  /** Whether the run stopped after `maxFailuresInARow` failures in a row, leaving addresses it had budget for. */
  stoppedByFailures: boolean
}

/** Settings of {@link geocodeEstablishmentAddresses}. */
export interface GeocodeOptions {
  /** The loaded `mattilsynet_smilefjes` dataset (e.g. `store.reader(smilefjes)`). */
  reader: DatasetReader
  /** The placed-addresses file: read for what is known, appended to (created with its header when absent). */
  file: string
  /** Kartverket's address API; {@link KARTVERKET_ADDRESS_API} by default. */
  baseUrl?: string
  /** Most requests to Kartverket in this run: 5 000 by default (a first run over every address takes several). */
  maxRequests?: number
  /** Requests in flight at once; 2 by default, to stay a polite client of a free service. */
  concurrency?: number
  /** An address Kartverket did not know is asked again after this many days; 30 by default. */
  retryNotFoundDays?: number
  /**
   * Most requests started per second; 10 by default, half the pace the gateway's own bulk
   * lookups keep (Kartverket publishes no limit for ws.geonorge.no; this is a courtesy).
   */
  requestsPerSecond?: number
  /** Stop the run after this many failures in a row (Kartverket down); 5 by default. */
  maxFailuresInARow?: number
  userAgent?: string
  signal?: AbortSignal
  onProgress?: (progress: GeocodeProgress) => void
  now?: () => Date
  fetch?: typeof fetch
}

interface KartverketAddress {
  adressetekst?: unknown
  kommunenummer?: unknown
  kommunenavn?: unknown
  representasjonspunkt?: { lat?: unknown; lon?: unknown }
}

const csvCell = (value: string | number | null): string => {
  const text = value === null ? '' : String(value)
  return /[;"\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** The known addresses of an existing file: the last line per key wins, as the import reads it. */
function knownAddresses(file: string): Map<string, { status: string; checkedAt: string }> {
  const known = new Map<string, { status: string; checkedAt: string }>()
  if (!existsSync(file)) return known
  const lines = readFileSync(file, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
  const header = lines[0]?.split(';') ?? []
  const [key, status, checked] = ['adresse_key', 'status', 'checked_at'].map((name) => header.indexOf(name))
  for (const line of lines.slice(1)) {
    if (line === '') continue
    // Only the key can be quoted (a street line with ";" or '"'), and it comes first.
    const quoted = /^"((?:[^"]|"")*)";(.*)$/.exec(line)
    const cells = quoted ? [quoted[1]!.replace(/""/g, '"'), ...quoted[2]!.split(';')] : line.split(';')
    if (cells[key!] !== undefined)
      known.set(cells[key!]!, { status: cells[status!] ?? '', checkedAt: cells[checked!] ?? '' })
  }
  return known
}

const streetOnly = (text: string) =>
  text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/(\d)\s+([a-zæøå])$/u, '$1$2')
    .trim()

/**
 * The hit that is the address asked for: the same text, or the same street and number with
 * another letter (`12` where Kartverket has only `12A`). Nothing looser: an establishment
 * placed at a wrong address is worse than one said to be unplaced.
 */
function matchOf(street: string, hits: KartverketAddress[]): KartverketAddress | undefined {
  const wanted = streetOnly(street)
  const text = (hit: KartverketAddress) => (typeof hit.adressetekst === 'string' ? streetOnly(hit.adressetekst) : '')
  return (
    hits.find((hit) => text(hit) === wanted) ??
    hits.find(
      (hit) => text(hit).replace(/[a-zæøå]$/u, '') === wanted.replace(/[a-zæøå]$/u, '') && /\d[a-zæøå]?$/u.test(wanted),
    )
  )
}

/**
 * The bounded, resumable step that places the smilefjes establishments on the map. It reads
 * the distinct addresses (street line and postal code) of the loaded establishments, skips
 * those the file already holds, asks Kartverket's address search once for each of the others,
 * up to `maxRequests`, and appends one line per answer to `file` as it comes: a run cut short
 * (Ctrl-C, the budget, Kartverket down) keeps what it found, and the next run goes on from
 * there. The file is kept in the data directory across imports, so after the first runs a
 * daily sync adds only the new addresses. `npx allmenning datasets sync` runs it after the
 * smilefjes file is synced (see `deriveAddressPoints`) and loads the file.
 *
 * @example
 * const store = createSqliteDatasetStore({ path: 'data/allmenning.sqlite', readonly: true })
 * const summary = await geocodeEstablishmentAddresses({
 *   reader: store.reader(smilefjes)!, file: 'data/mattilsynet-adressepunkter.csv', maxRequests: 2000,
 *   onProgress: (p) => console.log(`${p.done}/${p.total} placed ${p.placed}`),
 * })
 * // { addresses: 31204, known: 29011, total: 2000, placed: 1941, notFound: 59, failed: 0, remaining: 193, ... }
 */
export async function geocodeEstablishmentAddresses(options: GeocodeOptions): Promise<GeocodeSummary> {
  const now = options.now ?? (() => new Date())
  const fetcher = options.fetch ?? fetch
  const base = (options.baseUrl ?? KARTVERKET_ADDRESS_API).replace(/\/$/, '')
  const retryMs = (options.retryNotFoundDays ?? 30) * 86_400_000
  const rows = await options.reader.select<{ adrlinje1: string | null; postnr: string | null }>('tilsynsobjekter', {
    columns: ['adrlinje1', 'postnr'],
  })
  const addresses = new Map<string, { street: string; postnr: string }>()
  for (const row of rows) {
    const key = row.adrlinje1 && row.postnr ? addressKey(row.adrlinje1, row.postnr) : null
    if (key && !addresses.has(key)) addresses.set(key, { street: row.adrlinje1!.trim(), postnr: row.postnr! })
  }
  const known = knownAddresses(options.file)
  const due = [...addresses].filter(([key]) => {
    const entry = known.get(key)
    if (!entry) return true
    return entry.status === 'not_found' && now().getTime() - Date.parse(entry.checkedAt) > retryMs
  })
  const todo = due.slice(0, options.maxRequests ?? 5000)
  if (!existsSync(options.file)) appendFileSync(options.file, `${ADDRESS_POINT_COLUMNS.join(';')}\n`)
  const progress: GeocodeProgress = { total: todo.length, due: due.length, done: 0, placed: 0, notFound: 0, failed: 0 }
  let lastError: string | undefined
  // Once before the first request, so a caller can say what the run is about to do.
  options.onProgress?.({ ...progress })
  let failuresInARow = 0
  let next = 0
  const maxFailures = options.maxFailuresInARow ?? 5

  async function lookUp(key: string, street: string, postnr: string): Promise<void> {
    const url = new URL(`${base}/sok`)
    url.search = new URLSearchParams({
      sok: street,
      postnummer: postnr,
      treffPerSide: '5',
      utkoordsys: '4258',
    }).toString()
    let response: Response
    try {
      response = await fetcher(url, {
        headers: {
          accept: 'application/json',
          'user-agent': options.userAgent ?? 'Allmenning (mattilsynet geocoding step)',
        },
        ...(options.signal ? { signal: options.signal } : {}),
      })
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause
      throw new Error(
        `Kartverket's address API (${base}) could not be reached: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      )
    }
    if (!response.ok)
      throw new Error(`Kartverket's address API (${base}) answered ${response.status} for ${url.pathname}`)
    const body = (await response.json().catch(() => null)) as { adresser?: unknown } | null
    if (!body || !Array.isArray(body.adresser))
      throw new Error(`Kartverket's address API (${base}) answered without an adresser list`)
    const hit = matchOf(street, body.adresser as KartverketAddress[])
    const lat = Number(hit?.representasjonspunkt?.lat)
    const lon = Number(hit?.representasjonspunkt?.lon)
    const checked = now().toISOString()
    if (hit && Number.isFinite(lat) && Number.isFinite(lon)) {
      const fields = [
        key,
        'placed',
        lat,
        lon,
        String(hit.kommunenummer ?? ''),
        String(hit.kommunenavn ?? ''),
        String(hit.adressetekst ?? ''),
        checked,
      ]
      appendFileSync(options.file, `${fields.map(csvCell).join(';')}\n`)
      progress.placed++
    } else {
      appendFileSync(options.file, `${[key, 'not_found', '', '', '', '', '', checked].map(csvCell).join(';')}\n`)
      progress.notFound++
    }
  }

  // Requests are started at most this often, across the workers.
  const interval = 1000 / Math.max(0.01, options.requestsPerSecond ?? 10)
  let nextStart = 0
  const pace = async () => {
    const wait = nextStart - performance.now()
    nextStart = Math.max(nextStart, performance.now()) + interval
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
  }

  async function worker(): Promise<void> {
    while (next < todo.length && failuresInARow < maxFailures && !options.signal?.aborted) {
      const [key, { street, postnr }] = todo[next++]!
      await pace()
      try {
        await lookUp(key, street, postnr)
        failuresInARow = 0
      } catch (error) {
        if (options.signal?.aborted) break
        lastError = (error as Error).message
        progress.failed++
        failuresInARow++
      }
      progress.done++
      options.onProgress?.({ ...progress })
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker))
  return {
    ...progress,
    addresses: addresses.size,
    known: addresses.size - due.length,
    remaining: due.length - progress.placed - progress.notFound,
    ...(lastError ? { lastError } : {}),
    stoppedByFailures: failuresInARow >= maxFailures,
  }
}
