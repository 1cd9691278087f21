import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { defineOperation, foldNorwegian, UpstreamError } from '@allmenning/core/source'
import { kartverketStedsnavn } from '../geonorge/kartverket-upstreams.js'
import { kartverketKommuneinfo, resolveMunicipality, type MunicipalityLookup } from '../shared/kommuneinfo.js'
import { mapConcurrently } from '../shared/map-concurrently.js'
import { osloDate, osloMidnight } from '../shared/oslo-time.js'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { distanceKm, pointParameters, type Wgs84Point } from '../shared/wgs84-point.js'
import { newsPlaceField } from './place-fields.js'
import { nrkFeeds, politiloggen } from './nyheter-upstreams.js'
import { regionOfCounty, type NrkFeedCache } from './nrk-feed.js'
import { inBox, lookupBudget, LOOKUPS_PER_REQUEST, type Placer, type Unplaced } from './placement.js'
import type { MunicipalityAtPointLookup } from '../shared/municipality-at-point.js'
import { MAX_PAGES, PAGE_SIZE, type PoliceLogCache, type PoliceMessage } from './police-log.js'

const HOUR_MS = 3_600_000
/** `since` may reach back at most this far: Politiloggen is a log of the last days, not an archive. */
const MAX_LOOKBACK_DAYS = 7

const nullableText = (description: string) => v.pipe(v.nullable(v.string()), v.description(description))

const itemSchema = v.object({
  id: v.pipe(v.string(), v.description("Politiloggen's message id ({thread}-{n}), or nrk-{NRK's article id}")),
  name: v.pipe(
    v.string(),
    v.description('Headline: for Politiloggen, category and where ("Trafikk: Storgata, Oslo"); for NRK, the title'),
  ),
  lat: v.pipe(
    v.number(),
    v.description('WGS84 latitude of the place given to the message (see placed_by and precision_km)'),
  ),
  lon: v.pipe(v.number(), v.description('WGS84 longitude of the place given to the message')),
  source: v.pipe(v.picklist(['Politiloggen', 'NRK']), v.description('Politiloggen or NRK')),
  summary: nullableText("The police's message text, or NRK's lead"),
  pub_date: v.pipe(
    v.string(),
    v.description('When it was published (ISO 8601, UTC); the list is sorted by it, newest first'),
  ),
  updated_at: nullableText('When Politiloggen last changed the message (ISO 8601, UTC); null for NRK'),
  category: nullableText('Politiloggen category (Trafikk, Brann, Tyveri, …), or the category NRK gives an article'),
  district: nullableText('Police district (Politiloggen), e.g. "Oslo politidistrikt"'),
  municipality: nullableText('Municipality as Politiloggen writes it'),
  municipality_number: nullableText('Number of the municipality the message was placed in (four digits)'),
  area: nullableText("Politiloggen's area (a street, district or village); for NRK, the regional office"),
  url: nullableText("Link to the message on politiet.no's Politiloggen, or to the article on nrk.no"),
  is_active: v.pipe(
    v.nullable(v.boolean()),
    v.description('Politiloggen: whether the incident is still ongoing; null for NRK'),
  ),
  thread_id: nullableText("Politiloggen's incident (thread) the message belongs to; one incident has several messages"),
  placed_by: v.pipe(
    v.picklist(['area', 'municipality', 'region']),
    v.description(
      "area: the area is a place name of the municipality in Kartverket's register; municipality: Kartverket's representative " +
        'point of the municipality; region: the main town of the NRK regional office',
    ),
  ),
  precision_km: v.pipe(
    v.nullable(v.number()),
    v.description('How far the event may lie from lat/lon, in km (1 for an area)'),
  ),
  distance_km: v.pipe(v.number(), v.description('Distance from the point asked to lat/lon, in km')),
})

type Item = v.InferOutput<typeof itemSchema>

const unplacedSchema = v.object({
  count: v.pipe(
    v.number(),
    v.description('Police messages in the time window that could not be placed, so were left out'),
  ),
  lookup_cap: v.pipe(
    v.number(),
    v.description(
      `…of them because this answer had used its ${LOOKUPS_PER_REQUEST} geocoding lookups (placed by a later call)`,
    ),
  ),
  unknown_municipality: v.pipe(
    v.number(),
    v.description('…because Kartverket knows no single municipality by the name Politiloggen gives'),
  ),
  no_municipality: v.pipe(v.number(), v.description('…because the message names no municipality')),
  municipalities: v.pipe(v.array(v.string()), v.description('The municipality names left unplaced')),
})

/** What {@link createSearchNews} is built over, one of each per source instance. */
export interface SearchNewsDeps {
  policeLog: PoliceLogCache
  nrk: NrkFeedCache
  placer: Placer
  municipalityAt: MunicipalityAtPointLookup
  municipalities: MunicipalityLookup
}

const fold = (s: string) => foldNorwegian(s.trim().toLowerCase())

const invalid = (parameter: string, problem: string, rule: string) =>
  new GatewayError(400, 'invalid_parameter', `Invalid parameter: ${parameter} ${problem}`, {
    details: [{ parameter, problem, rule }],
  })

/** The instant a `since` names: an ISO time (UTC when it has no offset), or a day alone meaning its midnight in Oslo. */
function sinceInstant(since: string | undefined, now: number): number {
  if (since === undefined) return now - 24 * HOUR_MS
  const iso = since.replace(' ', 'T')
  // Date.parse reads a time without an offset in the server's zone: say UTC, as documented.
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(iso)
    ? osloMidnight(iso)
    : Date.parse(/(?:Z|[+-]\d{2}:?\d{2})$/.test(iso) ? iso : `${iso}Z`)
  if (!Number.isFinite(ms))
    throw invalid('since', 'must be an ISO 8601 time (2026-11-28T08:00:00Z) or a day (2026-11-28)', 'format')
  if (ms < now - MAX_LOOKBACK_DAYS * 24 * HOUR_MS)
    throw invalid('since', `must be at most ${MAX_LOOKBACK_DAYS} days ago`, 'min_value')
  return ms
}

function headline(m: PoliceMessage): string {
  const where = [m.area, m.municipality].filter(Boolean).join(', ')
  return `${m.category ?? 'Politiet'}${where ? `: ${where}` : ''}`
}

const round = (n: number) => Math.round(n * 100) / 100

/**
 * Builds `search_news` over one source instance's caches.
 *
 * @example
 * const searchNews = createSearchNews(deps)
 */
export function createSearchNews(deps: SearchNewsDeps) {
  return defineOperation({
    description:
      "News around a WGS84 point: the police's operative log (Politiloggen) and, for the point's region, NRK's regional " +
      "latest news, sorted by pub_date (when it was published), newest first. Politiloggen's messages carry no coordinates: " +
      "each is placed by its area when that is a place name of its municipality in Kartverket's register, else at its " +
      "municipality's representative point (placed_by and precision_km say which). A police message is listed when its place " +
      'lies within radius_km, or when it is placed by municipality and the point lies in that municipality. NRK articles are ' +
      "placed at their regional office's main town and listed when the point lies in the region's counties. since defaults " +
      `to the last 24 hours. One answer reads at most the ${MAX_PAGES * PAGE_SIZE} newest police messages and makes at most ` +
      `${LOOKUPS_PER_REQUEST} geocoding lookups (placements are then kept for days); what could not be placed is counted in unplaced.`,
    parameters: {
      ...pointParameters(3),
      radius_km: radiusKmParameter({ fallback: 20, max: 100 }),
      since: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.maxLength(40, 'must be at most 40 characters'),
          v.regex(
            /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/,
            'must be an ISO 8601 time or day',
          ),
          v.description(
            `Only news published at or after this time (ISO 8601, e.g. 2026-11-28T08:00:00Z; a day alone is its midnight in Oslo; ` +
              `a time without offset is read as UTC). Default: the last 24 hours. At most ${MAX_LOOKBACK_DAYS} days ago.`,
          ),
        ),
      ),
      source: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.toLowerCase(),
          v.picklist(['politiloggen', 'nrk']),
          v.description('Only one source: politiloggen or nrk'),
        ),
      ),
      category: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.minLength(1, 'must not be empty'),
          v.maxLength(60, 'must be at most 60 characters'),
          v.description(
            'Only this category, as Politiloggen names it (Trafikk, Brann, Tyveri, Ulykke, …); case does not matter',
          ),
        ),
      ),
      district: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.minLength(1, 'must not be empty'),
          v.maxLength(60, 'must be at most 60 characters'),
          v.description(
            'Only this police district, as Politiloggen names it ("Oslo politidistrikt"); police messages only',
          ),
        ),
      ),
      municipality: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.minLength(1, 'must not be empty'),
          v.maxLength(60, 'must be at most 60 characters'),
          v.check(
            (s) => !/^\d+$/.test(s) || /^\d{3,4}$/.test(s),
            'must be a municipality name, or a number of 3 or 4 digits (301 or 0301)',
          ),
          v.description('Only police messages of this municipality: its name (Oslo) or number (0301 or 301)'),
        ),
      ),
    },
    limit: { default: 100, max: 500 },
    output: v.object({
      items: v.array(itemSchema),
      count: v.pipe(v.number(), v.description('News found: the whole list before limit and offset')),
      radius_km: v.pipe(v.number(), v.description('The radius searched, in kilometres')),
      since: v.pipe(v.string(), v.description('The start of the time window searched (ISO 8601, UTC)')),
      unplaced: unplacedSchema,
      geocoding_lookups: v.pipe(
        v.number(),
        v.description('Geocoding lookups this answer made (names not seen before)'),
      ),
      nrk_region: nullableText('The NRK regional office whose feed was read for the point, or null'),
      nrk_error: nullableText(
        "Why NRK's feed is missing from this answer when it failed (the police log is still given)",
      ),
    }),
    list: 'items',
    placeField: newsPlaceField,
    canonicalFieldAliases: {
      name: ['items[].name'],
      timestamp: ['items[].pub_date'],
      latitude: ['items[].lat'],
      longitude: ['items[].lon'],
    },
    shapeNote:
      'data is {items, …} with the row fields the public gateway’s clients read (id, name, lat, lon, source, summary, pub_date) ' +
      'and its parameters lat, lon, radius_km (20), since and limit (100). Sorted by pub_date, not by when the gateway saw a row.',
    // The log is live; Politiloggen's own CDN keeps answers 15 s.
    cacheTtlSeconds: 90,

    async run(params, ctx) {
      const now = Date.now()
      const since = sinceInstant(params.since, now)
      const point: Wgs84Point = { lat: params.lat, lon: params.lon }
      const kommuneinfo = ctx.upstream(kartverketKommuneinfo)
      const clients = { kommuneinfo, stedsnavn: ctx.upstream(kartverketStedsnavn) }
      const wantCategory = params.category ? fold(params.category) : undefined
      const items: Item[] = []
      const unplaced = {
        count: 0,
        lookup_cap: 0,
        unknown_municipality: 0,
        no_municipality: 0,
        municipalities: new Set<string>(),
      }
      const budget = lookupBudget()
      let capped: { cap: number; reason: string } | undefined
      let sourceApi: string | undefined

      if (params.source !== 'nrk') {
        const asked = params.municipality
          ? await resolveMunicipality(deps.municipalities, kommuneinfo, params.municipality)
          : undefined
        const client = ctx.upstream(politiloggen)
        const read = await deps.policeLog.read(client, {
          dateFrom: osloDate(since - 24 * HOUR_MS),
          since,
          district: params.district,
          municipality: asked?.name,
          category: params.category,
        })
        sourceApi = read.url
        if (read.capped) {
          capped = {
            cap: MAX_PAGES * PAGE_SIZE,
            reason: `Politiloggen was read to its ${MAX_PAGES * PAGE_SIZE} newest matching messages, which did not reach back to since`,
          }
        }
        const askedNames = new Set((asked?.names ?? []).map(fold))
        const messages = read.messages.filter(
          (m) =>
            m.createdAt >= since &&
            (!wantCategory || (m.category !== null && fold(m.category) === wantCategory)) &&
            (!params.district || (m.district !== null && fold(m.district) === fold(params.district))) &&
            (!asked || (m.municipality !== null && askedNames.has(fold(m.municipality)))),
        )
        // Newest first, so that the lookups a request may make go to the news most likely read.
        messages.sort((a, b) => b.createdAt - a.createdAt)
        const near = (m: {
          point: Wgs84Point | null
          box: { south: number; west: number; north: number; east: number } | null
        }) =>
          m.box
            ? inBox(m.box, point, params.radius_km / 55)
            : m.point !== null && distanceKm(point, m.point) <= params.radius_km + 30
        const placements = await mapConcurrently(messages, 4, (m) => deps.placer.place(clients, m, budget, near))
        messages.forEach((m, i) => {
          const placed = placements[i]!
          if (typeof placed === 'string') {
            countUnplaced(unplaced, placed, m.municipality)
            return
          }
          const distance = distanceKm(point, placed)
          const inside =
            placed.placedBy === 'municipality' &&
            placed.municipality.box !== null &&
            inBox(placed.municipality.box, point)
          if (distance > params.radius_km && !inside) return
          items.push({
            id: m.id,
            name: headline(m),
            lat: placed.lat,
            lon: placed.lon,
            source: 'Politiloggen',
            summary: m.text,
            pub_date: new Date(m.createdAt).toISOString(),
            updated_at: m.updatedAt === null ? null : new Date(m.updatedAt).toISOString(),
            category: m.category,
            district: m.district,
            municipality: m.municipality,
            municipality_number: placed.municipality.number,
            area: m.area,
            url: m.threadId
              ? `https://www.politiet.no/politiloggen/hendelse/#/${encodeURIComponent(m.threadId)}`
              : null,
            is_active: m.isActive,
            thread_id: m.threadId,
            placed_by: placed.placedBy,
            precision_km: placed.precisionKm,
            distance_km: round(distance),
          })
        })
      }

      // NRK adds the region's own news, but has no district or municipality to filter by.
      let nrkRegion: string | null = null
      let nrkError: string | null = null
      if (params.source !== 'politiloggen' && !params.district && !params.municipality) {
        try {
          const county = (await deps.municipalityAt.get(kommuneinfo, point))?.county
          const region = county ? regionOfCounty(county) : undefined
          if (region) {
            nrkRegion = region.name
            const client = ctx.upstream(nrkFeeds)
            const feed = await deps.nrk.read(client, region)
            sourceApi ??= feed.url
            const distance = round(distanceKm(point, region))
            for (const item of feed.items) {
              if (item.publishedAt < since) continue
              if (wantCategory && (item.category === null || fold(item.category) !== wantCategory)) continue
              items.push({
                id: `nrk-${item.id.replace(/^.*?(\d+\.\d+)$/, '$1')}`,
                name: item.title,
                lat: region.lat,
                lon: region.lon,
                source: 'NRK',
                summary: item.summary,
                pub_date: new Date(item.publishedAt).toISOString(),
                updated_at: null,
                category: item.category,
                district: null,
                municipality: null,
                municipality_number: null,
                area: region.name,
                url: item.link,
                is_active: null,
                thread_id: null,
                placed_by: 'region',
                precision_km: region.reachKm,
                distance_km: distance,
              })
            }
          }
        } catch (error) {
          // Asked for NRK alone, its failure is the answer; beside the police log, it is a note.
          if (params.source === 'nrk' || !(error instanceof UpstreamError)) throw error
          nrkError = error.message
        }
      }

      items.sort((a, b) =>
        a.pub_date === b.pub_date ? a.id.localeCompare(b.id) : b.pub_date.localeCompare(a.pub_date),
      )
      return {
        data: {
          items,
          count: items.length,
          radius_km: params.radius_km,
          since: new Date(since).toISOString(),
          unplaced: { ...unplaced, municipalities: [...unplaced.municipalities].sort() },
          geocoding_lookups: budget.used,
          nrk_region: nrkRegion,
          nrk_error: nrkError,
        },
        ...(sourceApi ? { sourceApi } : {}),
        ...(capped ? { capped } : {}),
      }
    },
  })
}

function countUnplaced(
  unplaced: {
    count: number
    lookup_cap: number
    unknown_municipality: number
    no_municipality: number
    municipalities: Set<string>
  },
  why: Unplaced,
  municipality: string | null,
): void {
  unplaced.count++
  unplaced[why]++
  if (municipality) unplaced.municipalities.add(municipality)
}
