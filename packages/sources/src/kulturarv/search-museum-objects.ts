import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { defineOperation, upstreamNotConfigured } from '@allmenning/core/source'
import { DIMU_KEY_VARIABLE, DIMU_PATHS, dimuApi } from './kulturarv-upstreams.js'
import { datingOf, parseMuseumObjects } from './museum-objects.js'
import { ownerKey, REFUSALS, refusedKey, type MuseumOwner, type OwnerList } from './museum-owners.js'

/** DigitaltMuseum gives at most 100 rows a page. */
export const DIMU_ROWS_MAX = 100
/** The most owners one search may name. */
export const OWNERS_MAX = 20
const OWNER_CODE = /^[A-Za-z0-9]{1,16}(?:-[A-Za-z0-9]{1,16}){0,3}$/

const text = (description: string) => v.pipe(v.nullable(v.string()), v.description(description))

const objectSchema = v.object({
  title: text('Title of the object or photograph'),
  identifier: text('The museum’s own inventory number, e.g. NF.10028-025'),
  unique_id: text('DigitaltMuseum’s id, e.g. 011013417696 (the object’s page is digitaltmuseum.no/<unique_id>)'),
  owner: text('The museum’s DigitaltMuseum code (see list_museums), e.g. NF'),
  museum: text('The museum’s name, from DigitaltMuseum’s list of museums'),
  type: text('Kind of object: Thing, Photograph, Fineart, Building, …'),
  producer: text('Maker, artist or photographer'),
  dating: text('Production year or years, e.g. 1940–1945'),
  from_year: v.pipe(v.nullable(v.number()), v.description('First production year')),
  to_year: v.pipe(v.nullable(v.number()), v.description('Last production year')),
  place: text('Production place as the museum writes it'),
  subjects: v.pipe(v.array(v.string()), v.description('Subjects (emneord)')),
  license: v.pipe(v.array(v.string()), v.description('Licences of the metadata, e.g. CC by-nc, CC pdm')),
  image_url: text('The default image on DigitaltMuseum’s media server (add ?dimension=400x400 for a smaller one)'),
  link: text('The object on digitaltmuseum.no'),
  lat: v.pipe(v.nullable(v.number()), v.description('WGS84 latitude, when the museum placed the object')),
  lon: v.pipe(v.nullable(v.number()), v.description('WGS84 longitude, when the museum placed the object')),
})

/**
 * A Solr query from the caller's text: `*` as it is, anything else with Solr's special characters escaped.
 *
 * @example
 * solrQuery('Munch: Skrik') // 'Munch\\: Skrik'
 */
export function solrQuery(text: string): string {
  const trimmed = text.trim()
  if (trimmed === '' || trimmed === '*') return '*'
  return trimmed.replace(/[+\-&|!(){}[\]^"~*?:\\/]/g, (c) => `\\${c}`)
}

/**
 * The owners whose name contains the text or is contained in it (at least four letters), or whose code it is.
 *
 * @example
 * ownersNamed([{ code: 'NF', name: 'Norsk Folkemuseum', parent: null }], 'Norsk Folkemuseum, Hovedbygning') // [NF]
 */
export function ownersNamed(owners: MuseumOwner[], text: string): MuseumOwner[] {
  const key = ownerKey(text)
  if (key.length === 0) return []
  const byCode = owners.filter((o) => o.code.toLowerCase() === text.trim().toLowerCase())
  if (byCode.length > 0) return byCode
  if (key.length < 4) return []
  return owners.filter((o) => {
    const name = o.name ? ownerKey(o.name) : ''
    return name.length >= 4 && (name.includes(key) || key.includes(name))
  })
}

/** What {@link createSearchMuseumObjects} is built over. */
export interface MuseumDeps {
  apiKey: string | undefined
  owners: OwnerList
}

/**
 * Builds `search_museum_objects` with the deployment's DigitaltMuseum key (or none).
 *
 * @example
 * const op = createSearchMuseumObjects({ apiKey: process.env.ALLMENNING_DIMU_API_KEY, owners: createOwnerList() })
 * // GET /api/v1/kilder/kulturarv/search_museum_objects?query=*&owner=NF,NMK-B&limit=10
 */
export function createSearchMuseumObjects(deps: MuseumDeps) {
  return defineOperation({
    description:
      'Objects and photographs in the collections of Norwegian museums, from DigitaltMuseum: title, inventory number, museum, ' +
      'maker, dating, an image URL and a digitaltmuseum.no link. owner restricts the search to museums by their DigitaltMuseum ' +
      'code (list_museums gives them), several at once separated by commas (owner=NF,NMK-B): one call for many museums. ' +
      'Without owner, a query that names a museum (Norsk Folkemuseum) searches that museum’s objects; any other query ' +
      'searches every museum; query=* needs an owner. Needs a DigitaltMuseum API key (ALLMENNING_DIMU_API_KEY); without one the answer is a 502 ' +
      'upstream_not_configured. DigitaltMuseum gives at most 100 objects a page (the demo key 10; _meta.capped says so).',
    parameters: {
      query: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.minLength(1, 'must not be empty; give * for every object'),
          v.maxLength(200, 'must be at most 200 characters'),
          v.description('Words to search for, or a museum’s name, or * for every object of the museums in owner'),
        ),
        '*',
      ),
      owner: v.optional(
        v.pipe(
          v.string(),
          v.transform((s) =>
            s
              .split(',')
              .map((code) => code.trim())
              .filter(Boolean)
              .join(','),
          ),
          v.minLength(1, 'must name at least one museum code, e.g. NF'),
          v.check(
            (s) => s.split(',').every((code) => OWNER_CODE.test(code)),
            'must be museum codes such as NF or NMK-A, separated by commas',
          ),
          v.check((s) => s.split(',').length <= OWNERS_MAX, `must name at most ${OWNERS_MAX} museums`),
          v.description(
            'DigitaltMuseum code of the museum, or several separated by commas: NF, NMK-A, NF,NMK-B (list_museums gives them)',
          ),
        ),
      ),
    },
    limit: { default: 10, max: DIMU_ROWS_MAX },
    output: v.object({
      objects: v.array(objectSchema),
      count: v.pipe(v.number(), v.description('Objects matched in all, as DigitaltMuseum counts them')),
      owners: v.pipe(
        v.array(v.object({ code: v.string(), name: v.nullable(v.string()) })),
        v.description('The museums searched; empty when every museum was searched'),
      ),
      owner_scope: v.pipe(
        v.picklist(['given', 'named_in_query', 'all']),
        v.description('given: the owner parameter; named_in_query: the museums the query named; all: every museum'),
      ),
    }),
    list: 'objects',
    canonicalFieldAliases: { name: ['objects[].title'], latitude: ['objects[].lat'], longitude: ['objects[].lon'] },
    shapeNote:
      'data is {objects, count, owners, owner_scope} with the row field the public gateway’s clients read (title) and its ' +
      'parameters query (a museum’s name or *), owner (a DigitaltMuseum code) and limit.',
    // Museums publish new objects daily; an object's record rarely changes.
    cacheTtlSeconds: 6 * 3600,

    async run(params, ctx) {
      const client = ctx.upstream(dimuApi)
      const apiKey = deps.apiKey
      if (!apiKey) throw upstreamNotConfigured(client, DIMU_KEY_VARIABLE)
      // The names are a nicety: a failing list of museums leaves them out rather than failing the search.
      let known: MuseumOwner[] | null = null
      const knownOwners = async () => (known ??= await deps.owners.get(client, apiKey).catch(() => []))
      let codes: string[] = []
      let scope: 'given' | 'named_in_query' | 'all' = 'all'
      let q = params.query
      if (!params.owner && params.query === '*') {
        const problem =
          'is required when query is * (DigitaltMuseum asks that a search for everything be restricted to museums); list_museums gives the codes'
        throw new GatewayError(400, 'invalid_parameter', `Invalid parameter: owner ${problem}`, {
          details: [{ parameter: 'owner', problem, rule: 'required_with' }],
        })
      }
      if (params.owner) {
        codes = params.owner.split(',')
        scope = 'given'
      } else if (params.query !== '*') {
        const named = ownersNamed(await knownOwners(), params.query).slice(0, OWNERS_MAX)
        if (named.length > 0) {
          codes = named.map((o) => o.code)
          scope = 'named_in_query'
          q = '*'
        }
      }
      const query = {
        q: solrQuery(q),
        ...(codes.length > 0 ? { fq: `identifier.owner:(${codes.map((c) => `"${c}"`).join(' OR ')})` } : {}),
        wt: 'json',
        rows: params.limit,
        start: params.offset,
        'api.key': apiKey,
      }
      const response = await client.getJson(DIMU_PATHS.search, { query, redact: [apiKey], acceptStatus: REFUSALS })
      if (REFUSALS.includes(response.status)) throw refusedKey(client, response.status)
      const page = parseMuseumObjects(response.body, client)
      const names = new Map((await knownOwners()).map((o) => [o.code, o.name]))
      const objects = page.objects.map((o) => ({
        title: o.title,
        identifier: o.identifier,
        unique_id: o.uniqueId,
        owner: o.owner,
        museum: o.owner ? (names.get(o.owner) ?? null) : null,
        type: o.type,
        producer: o.producer,
        dating: datingOf(o.fromYear, o.toYear),
        from_year: o.fromYear,
        to_year: o.toYear,
        place: o.place,
        subjects: o.subjects,
        license: o.licenses,
        image_url: o.mediaId ? `https://dms01.dimu.org/image/${encodeURIComponent(o.mediaId)}` : null,
        link: o.uniqueId ? `https://digitaltmuseum.no/${encodeURIComponent(o.uniqueId)}` : null,
        lat: o.lat,
        lon: o.lon,
      }))
      const answer = { sourceApi: response.url }
      const data = {
        objects,
        count: page.matched,
        owners: codes.map((code) => ({ code, name: names.get(code) ?? null })),
        owner_scope: scope,
      }
      const expected = Math.min(params.limit, Math.max(page.matched - params.offset, 0))
      const pageInfo = { hasMore: params.offset + objects.length < page.matched, total: page.matched }
      if (objects.length >= expected) return { ...answer, data, page: pageInfo }
      // The demo key answers at most 10 rows whatever is asked.
      const reason = `DigitaltMuseum gave ${objects.length} of the ${expected} objects asked for (the demo key gives at most 10); page on with offset`
      return { ...answer, data, page: pageInfo, capped: { cap: objects.length, reason } }
    },
  })
}
