// Sources for the composition benchmarks: every place field and an entity search, answered
// from memory after a delay, or never (a hanging upstream), so a run measures the gateway's
// composition and not the network.
import * as v from 'valibot'
import { defineOperation, defineSource, defineUpstream } from '@allmenning/core/source'

const point = {
  lat: v.pipe(v.number(), v.minValue(-90), v.maxValue(90)),
  lon: v.pipe(v.number(), v.minValue(-180), v.maxValue(180)),
}
const upstream = defineUpstream({
  id: 'stand_in',
  name: 'Stand-in upstream',
  baseUrl: 'http://127.0.0.1:9',
  publisher: 'Bench',
  license: 'CC0',
})
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// The built-in sources' thirteen place fields and their sections, so a bundle is as large as theirs.
const placeFields = [
  ['addresses', 'geography'],
  ['place_names', 'geography'],
  ['current_weather', 'weather'],
  ['forecast', 'weather'],
  ['air_stations', 'air'],
  ['air_forecast', 'air'],
  ['pois', 'poi'],
  ['vessels', 'maritime'],
  ['aquaculture', 'maritime'],
  ['ports', 'maritime'],
  ['charging_stations', 'energy'],
  ['fire_detections', 'air'],
  ['price_area', 'energy'],
]

/** One source filling all twelve place fields (and the price area); `hanging` names a field that never answers. */
export function placeSource({ delayMs = 5, hanging } = {}) {
  return defineSource({
    id: 'places_bench',
    name: 'Place stand-ins',
    description: 'Every place field, from memory.',
    documentation: 'https://example.no/bench',
    topic: 'places',
    keywords: ['bench'],
    contentLanguages: ['en'],
    cacheTtlSeconds: 600,
    upstreams: [upstream],
    operations: placeFields.map(([field, section]) =>
      defineOperation({
        name: `near_${field}`,
        description: `Stand-in for ${field}.`,
        parameters: point,
        output: v.array(v.object({ name: v.string(), lat: v.number(), lon: v.number() })),
        placeField: {
          name: field,
          section,
          description: `Stand-in for ${field}.`,
          ...(['addresses', 'place_names', 'current_weather'].includes(field) ? { summary: true } : {}),
        },
        async run(params, ctx) {
          ctx.upstream(upstream)
          if (field === hanging) await new Promise(() => {})
          await wait(delayMs)
          return {
            data: Array.from({ length: 10 }, (_, i) => ({
              name: `${field} ${i}`,
              lat: params.lat + i / 1000,
              lon: params.lon,
            })),
          }
        },
      }),
    ),
  })
}

/** A source whose entity search answers after `delayMs`, or never when `hang`. */
export function searchSource(id, { delayMs = 5, hang = false } = {}) {
  return defineSource({
    id,
    name: `Search stand-in ${id}`,
    description: 'Entities from memory.',
    documentation: 'https://example.no/bench',
    topic: 'bench',
    keywords: [id],
    contentLanguages: ['en'],
    cacheTtlSeconds: 600,
    upstreams: [upstream],
    entityTypes: { thing: { operation: 'get_thing', parameter: 'id' } },
    entitySearch: {
      async search(q) {
        if (hang) await new Promise(() => {})
        await wait(delayMs)
        return { hits: Array.from({ length: 5 }, (_, i) => ({ type: 'thing', id: `${id}-${i}`, name: `${q} ${i}` })) }
      },
    },
    operations: [
      defineOperation({
        name: 'get_thing',
        description: 'One thing.',
        parameters: { id: v.string() },
        output: v.string(),
        run: async (p) => ({ data: p.id }),
      }),
    ],
  })
}
