/** One entity a source found for a search text. */
export interface EntityHit {
  /** One of the source's declared `entityTypes`; the core links the hit to that type's operation. */
  type: string
  id: string
  name: string
  /** A short line that tells namesakes apart: an organisation form and place, an airport's country. */
  description?: string
  /** Parameters of the linked operation when they are not simply the id. */
  linkParameters?: Record<string, string | number>
  /** Where it is, in WGS84 degrees, for a thing with a place (an address, a place name): `/steder/sok` lists only these. */
  lat?: number
  lon?: number
}

/** What a source's entity search gives back. */
export interface EntitySearchResult {
  /** Best first, at most `limit`. */
  hits: EntityHit[]
  /** How many entities matched in all, when the source knows (it may be more than `hits`). */
  matched?: number
}

/** What the core hands an entity search. */
export interface EntitySearchContext {
  /** The most hits worth returning. */
  readonly limit: number
  /** Aborted when the search's deadline passes; pass it on to long work. */
  readonly signal: AbortSignal
  /**
   * Calls one of this source's own operations through the gateway's pipeline (validation,
   * cache, single flight, stale answers) and resolves to its `data`, so a search costs no
   * upstream call an operation call has already made. A failure rejects with its GatewayError.
   * The data is the cached answer's own value, shared with every other caller: read it, map
   * it into new objects, never change it in place.
   */
  call(operation: string, parameters: Record<string, string | number | boolean>): Promise<unknown>
}

/**
 * How a source takes part in cross-source entity search (`/api/v1/sok/alle`, modes
 * `entities`, `all` and `auto`).
 *
 * @example
 * const entitySearch: EntitySearch = {
 *   recognize: (q) => (/^\d{9}$/.test(q) ? 'organization_number' : undefined),
 *   async search(q, ctx) {
 *     const hits = (await ctx.call('organisasjonsnummer_for_selskap', { company_name: q, limit: ctx.limit })) as Company[]
 *     return { hits: hits.map((h) => ({ type: 'organization', id: h.organisasjonsnummer, name: h.navn, description: h.beskrivelse })) }
 *   },
 * }
 * type Company = { organisasjonsnummer: string; navn: string; beskrivelse?: string }
 */
export interface EntitySearch {
  /**
   * Names what the text recognisably is when it belongs to this source (nine digits passing
   * the organisation-number check, an airport code, a case number): `auto` then searches
   * this source first. Undefined when it is not. A promise when the answer needs code not yet
   * loaded (see `deferEntitySearch`).
   */
  recognize?(query: string): string | undefined | Promise<string | undefined>
  search(query: string, ctx: EntitySearchContext): Promise<EntitySearchResult>
}
