import * as v from 'valibot'
import { defineOperation, type DatasetCondition } from '@allmenning/core/source'
import { placeKey } from './address-key.js'
import { adressepunkter } from './datasets/adressepunkter.js'
import { smilefjes } from './datasets/smilefjes.js'
import { establishmentRows, establishmentSchema, type EstablishmentRecord } from './establishment-rows.js'
import { checkGradeBounds, gradeCondition, gradeParameter, sinceCondition, sinceParameter } from './filters.js'
import { nameQuery } from './fts-query.js'
import { optionalDataset } from './optional-dataset.js'

/** What {@link createSearchEstablishments} needs besides the datasets. */
export interface SearchEstablishmentsDeps {
  now: () => Date
}

const text = (max: number, description: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, 'must not be empty'),
      v.maxLength(max, `must be at most ${max} characters`),
      v.description(description),
    ),
  )

/** The note every answer carries on how the rows are placed. */
export function placementNote(pointsLoaded: boolean): string {
  return pointsLoaded
    ? "Positions are each address's point in Kartverket's address register, looked up once per address by the geocoding step; rows it has not reached yet say plassering not_yet_geocoded."
    : 'The placed addresses (dataset mattilsynet_adressepunkter) are not loaded here, so no row has a position (plassering not_yet_geocoded).'
}

/**
 * Builds `search_establishments`: establishments by postal place, postal code, municipality,
 * name or organisation number, each with its latest inspection and grade, its earlier
 * inspections and its position, newest inspection first.
 *
 * @example
 * const op = createSearchEstablishments({ now: () => new Date() })
 * // GET /api/v1/kilder/mattilsynet/search_establishments?poststed=Oslo&min_karakter=0&limit=100
 */
export function createSearchEstablishments(deps: SearchEstablishmentsDeps) {
  return defineOperation({
    description:
      "Restaurants, cafés, shops and other places serving food, with the smiley grade (smilefjes) of Mattilsynet's latest " +
      'inspection (0–1 smiling, 2 straight, 3 sad), its four themes, the earlier inspections, and a WGS84 position from ' +
      "Kartverket's address register. Filter by postal place, postal code, municipality, name, organisation number, grade " +
      "and date; newest inspection first (best name match first with query). From Mattilsynet's daily bulk file, loaded " +
      'with `allmenning datasets sync mattilsynet_smilefjes`.',
    parameters: {
      poststed: text(60, 'Postal place as the file writes it, any case: Oslo, Bergen, Tromsø'),
      postnr: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.regex(/^\d{4}$/, 'must be a postal code of 4 digits'),
          v.description('Postal code, 4 digits: 0155'),
        ),
      ),
      kommune: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.minLength(1, 'must not be empty'),
          v.maxLength(60, 'must be at most 60 characters'),
          v.check(
            (s) => !/^\d+$/.test(s) || /^\d{3,4}$/.test(s),
            'must be a municipality name, or a number of 3 or 4 digits (301 or 0301)',
          ),
          v.description(
            'Municipality, by number (0301 or 301) or name (Oslo), of the address as Kartverket places it: needs the placed addresses (dataset mattilsynet_adressepunkter)',
          ),
        ),
      ),
      query: text(100, 'Words of the establishment’s name, each matched as the start of a word: "pizza bakeren"'),
      orgnummer: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.regex(/^\d{9}$/, 'must be an organisation number of 9 digits'),
          v.description('Organisation number of the business'),
        ),
      ),
      min_karakter: gradeParameter('lowest'),
      max_karakter: gradeParameter('highest'),
      since: sinceParameter,
    },
    limit: { default: 100, max: 1000 },
    output: v.object({
      establishments: v.array(establishmentSchema),
      total: v.pipe(v.number(), v.description('Establishments matching, before limit and offset')),
      placed: v.pipe(v.number(), v.description('Rows of this page with a position')),
      note: v.string(),
    }),
    list: 'establishments',
    canonicalFieldAliases: {
      name: ['establishments[].navn'],
      latitude: ['establishments[].lat'],
      longitude: ['establishments[].lon'],
      timestamp: ['establishments[].dato'],
    },
    shapeNote:
      'data is {establishments, total, …} with the row fields the public gateway’s clients read (establishment_id, navn, adresse, ' +
      'postnr, poststed, dato, karakter 0–3) and its parameters poststed, min_karakter, limit and offset; limit above 1000 is a 400, never cut.',
    datasets: [smilefjes, adressepunkter],
    // The file is rebuilt once a day; an answer is keyed by the loaded generation, so a new one is seen at once.
    cacheTtlSeconds: 6 * 3600,

    async run(params, ctx) {
      checkGradeBounds(params.min_karakter, params.max_karakter)
      const register = ctx.dataset(smilefjes)
      const points = params.kommune !== undefined ? ctx.dataset(adressepunkter) : optionalDataset(ctx, adressepunkter)
      const where: Record<string, DatasetCondition> = {}
      if (params.poststed !== undefined) where.poststed_key = placeKey(params.poststed)
      if (params.postnr !== undefined) where.postnr = params.postnr
      if (params.orgnummer !== undefined) where.orgnummer = params.orgnummer
      const grades = gradeCondition(params.min_karakter, params.max_karakter)
      if (grades !== undefined) where.karakter = grades
      const dates = sinceCondition(params.since, deps.now())
      if (dates !== undefined) where.dato = dates
      if (params.kommune !== undefined && points) {
        const number = /^\d{3,4}$/.test(params.kommune) ? params.kommune.padStart(4, '0') : undefined
        const inKommune = await points.select<{ adresse_key: string }>('adressepunkter', {
          columns: ['adresse_key'],
          where: number
            ? { kommunenummer: number, status: 'placed' }
            : { kommunenavn_key: placeKey(params.kommune), status: 'placed' },
        })
        where.adresse_key = { in: inKommune.map((p) => p.adresse_key) }
      }
      const window = { limit: params.limit, offset: params.offset }
      let page: EstablishmentRecord[]
      let total: number
      const match = params.query === undefined ? null : nameQuery(params.query)
      if (params.query !== undefined && match === null) {
        page = []
        total = 0
      } else if (match !== null) {
        const found = await register.search<EstablishmentRecord>('tilsynsobjekter', { match, where, ...window })
        page = found.rows
        total = found.total
      } else {
        ;[page, total] = await Promise.all([
          register.select<EstablishmentRecord>('tilsynsobjekter', {
            where,
            orderBy: [{ column: 'dato', direction: 'desc' }, { column: 'tilsynsobjektid' }],
            ...window,
          }),
          register.count('tilsynsobjekter', where),
        ])
      }
      const establishments = await establishmentRows(register, points, page)
      return {
        data: {
          establishments,
          total,
          placed: establishments.filter((e) => e.lat !== null).length,
          note: placementNote(points !== undefined),
        },
        page: { hasMore: params.offset + page.length < total, total },
      }
    },
  })
}
