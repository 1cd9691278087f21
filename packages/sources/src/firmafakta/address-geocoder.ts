import { createTimedMemo, type UpstreamClient } from '@allmenning/core/source'
import { ADDRESS_PATHS, fetchAddressPage } from '../geonorge/address-api.js'
import type { Address } from '../geonorge/address-mapping.js'
import { mapConcurrently } from '../shared/map-concurrently.js'
import type { RequestBudget } from '../shared/request-budget.js'
import { normalizeStreet, type GeocodableAddress } from './geocodable-address.js'

/** Where Kartverket puts an address: its representation point in WGS84, and its own text of it. */
export interface PlacedAddress {
  lat: number
  lon: number
  /** Kartverket's address and postal place: `Kongens gate 30, 0153 OSLO`. */
  address: string
}

/** What became of one address in one run. */
export type GeocodeResult =
  | { status: 'placed'; place: PlacedAddress; cached: boolean }
  /** Kartverket has no address with that street, number and postal code. */
  | { status: 'not_found'; cached: boolean }
  /** Not asked this time: the per-request cap or the shared budget was spent. */
  | { status: 'not_looked_up'; because: 'cap' | 'budget' }
  /** Kartverket failed for it, or failed earlier in the run and was not asked again. */
  | { status: 'failed'; error: unknown }

/** The outcome of placing a list of addresses, by address key. */
export interface GeocodeRun {
  results: Map<string, GeocodeResult>
  /** Calls made to Kartverket in this run (cache hits cost none). */
  calls: number
  /** The first failure, to name Kartverket when nothing at all could be placed. */
  firstError: unknown
}

/** Bounds of one run. */
export interface GeocodeLimits {
  /** Most calls to Kartverket; addresses beyond it are `not_looked_up` (`cap`). */
  maxCalls: number
  /** Most calls in flight at once. */
  concurrency: number
}

/** Places business addresses through Kartverket's address search, remembering what it found. See {@link createAddressGeocoder}. */
export interface AddressGeocoder {
  placeAll(client: UpstreamClient, addresses: readonly GeocodableAddress[], limits: GeocodeLimits): Promise<GeocodeRun>
}

/** Settings of {@link createAddressGeocoder}. */
export interface AddressGeocoderOptions {
  /** The request budget each call to Kartverket waits its turn in. */
  budget: RequestBudget
  /** How long a found point is kept; 30 days by default (addresses rarely move). */
  placedTtlMs?: number
  /** How long "no such address" is kept; a day by default (a new building gets its address in days). */
  missTtlMs?: number
  /** Most addresses kept of each kind; 20 000 by default (some megabytes). */
  maxEntries?: number
  /** Clock in milliseconds; `Date.now` by default. */
  now?: () => number
}

const DAY_MS = 86_400_000

/** Hits asked for per address: the exact one is nearly always first, 5 leaves room for `30`, `30A`, `30B`. */
const HITS_PER_ADDRESS = 5

function houseNumber(street: string): number | undefined {
  const match = /\s(\d+)[a-zæøå]?$/u.exec(street)
  return match?.[1] === undefined ? undefined : Number(match[1])
}

/**
 * The hit that is the address asked for: the same text (`Kongens gate 30`), or else the same
 * street and house number with another letter (Brønnøysund's `30` where Kartverket has only
 * `30A`). Anything looser (a neighbouring number, another street) is no match: a company
 * placed at a wrong address would be worse than one said to be unplaced.
 */
function matchOf(street: string, hits: readonly Address[]): Address | undefined {
  const wanted = normalizeStreet(street)
  const exact = hits.find((hit) => normalizeStreet(hit.address) === wanted)
  if (exact) return exact
  const number = houseNumber(wanted)
  return hits.find(
    (hit) =>
      hit.street !== null &&
      number !== undefined &&
      hit.number === number &&
      wanted.startsWith(`${normalizeStreet(hit.street)} `),
  )
}

/**
 * A geocoder for business addresses over Kartverket's address search (`/sok?sok=<street>&
 * postnummer=<code>`), with a long-lived memory of address → point, so an address is asked for
 * once a month rather than once a request, and of addresses Kartverket does not have (for a
 * day). A run is bounded: at most `maxCalls` calls, `concurrency` at a time, each waiting its
 * turn in the shared budget; what the bounds leave out is said (`not_looked_up`), never
 * dropped. After the first failure Kartverket is not asked again in the same run.
 *
 * @example
 * const geocoder = createAddressGeocoder({ budget: createRequestBudget({ requests: 20, perMs: 1000, maxWaitMs: 1500 }) })
 * const run = await geocoder.placeAll(ctx.upstream(kartverketAdresser), addresses, { maxCalls: 50, concurrency: 4 })
 * run.results.get('kongens gate 30|0153')
 * // { status: 'placed', place: { lat: 59.9095, lon: 10.7445, address: 'Kongens gate 30, 0153 OSLO' }, cached: false }
 */
export function createAddressGeocoder(options: AddressGeocoderOptions): AddressGeocoder {
  const maxEntries = options.maxEntries ?? 20_000
  const clock = options.now ? { now: options.now } : {}
  const placed = createTimedMemo<PlacedAddress>({ ttlMs: options.placedTtlMs ?? 30 * DAY_MS, maxEntries, ...clock })
  const missing = createTimedMemo<true>({ ttlMs: options.missTtlMs ?? DAY_MS, maxEntries, ...clock })

  async function lookUp(client: UpstreamClient, address: GeocodableAddress): Promise<PlacedAddress | undefined> {
    const query = { sok: address.street, postnummer: address.postnummer }
    const page = await fetchAddressPage(client, ADDRESS_PATHS.search, query, 0, HITS_PER_ADDRESS)
    const hit = matchOf(address.street, page.items)
    if (!hit) return undefined
    const postal = [hit.postal_code, hit.postal_place].filter((part) => part !== null).join(' ')
    return { lat: hit.lat, lon: hit.lon, address: postal === '' ? hit.address : `${hit.address}, ${postal}` }
  }

  return {
    async placeAll(client, addresses, limits) {
      const results = new Map<string, GeocodeResult>()
      const toAsk: GeocodableAddress[] = []
      const seen = new Set<string>()
      for (const address of addresses) {
        if (seen.has(address.key)) continue
        seen.add(address.key)
        const known = placed.peek(address.key)
        if (known) results.set(address.key, { status: 'placed', place: known, cached: true })
        else if (missing.peek(address.key)) results.set(address.key, { status: 'not_found', cached: true })
        else toAsk.push(address)
      }
      for (const address of toAsk.slice(limits.maxCalls))
        results.set(address.key, { status: 'not_looked_up', because: 'cap' })

      let calls = 0
      let firstError: unknown
      let stopped: GeocodeResult | undefined
      await mapConcurrently(toAsk.slice(0, limits.maxCalls), limits.concurrency, async (address) => {
        if (stopped) return void results.set(address.key, stopped)
        try {
          await options.budget.take(client)
        } catch {
          // The budget is spent by other requests too: leave the rest for a later request.
          stopped ??= { status: 'not_looked_up', because: 'budget' }
          return void results.set(address.key, stopped)
        }
        if (stopped) return void results.set(address.key, stopped)
        calls++
        try {
          const place = await lookUp(client, address)
          if (place) {
            await placed.get(address.key, async () => place)
            results.set(address.key, { status: 'placed', place, cached: false })
          } else {
            await missing.get(address.key, async () => true)
            results.set(address.key, { status: 'not_found', cached: false })
          }
        } catch (error) {
          firstError ??= error
          stopped ??= { status: 'failed', error }
          results.set(address.key, { status: 'failed', error })
        }
      })
      return { results, calls, firstError }
    },
  }
}
