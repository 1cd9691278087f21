import * as v from 'valibot'
import { checkUpstreamShape, defineOperation } from '@allmenning/core/source'
import { counties, countyNumbers } from './counties.js'
import { metAlerts } from './met-upstreams.js'

// What MetAlerts' current.json sends: a GeoJSON FeatureCollection, one feature per warning.
const alertsPayload = v.looseObject({
  lastChange: v.optional(v.string()),
  features: v.array(
    v.looseObject({
      properties: v.looseObject({
        id: v.string(),
        event: v.string(),
        title: v.string(),
        area: v.string(),
        awareness_level: v.string(),
        severity: v.string(),
        certainty: v.string(),
        description: v.string(),
        instruction: v.optional(v.string()),
        county: v.optional(v.array(v.string())),
      }),
      when: v.looseObject({ interval: v.tuple([v.string(), v.string()]) }),
    }),
  ),
})

const alert = v.object({
  id: v.pipe(v.string(), v.description("MET's id of the warning (a CAP identifier)")),
  event: v.pipe(v.string(), v.description('What is warned of: wind, rain, snow, forestFire, gale, ...')),
  title: v.string(),
  area: v.pipe(v.string(), v.description('The area as MET names it')),
  level: v.pipe(v.picklist(['yellow', 'orange', 'red']), v.description('Awareness level')),
  severity: v.string(),
  certainty: v.string(),
  starts: v.pipe(v.string(), v.description('ISO 8601')),
  ends: v.pipe(v.string(), v.description('ISO 8601')),
  description: v.string(),
  instruction: v.nullable(v.string()),
  counties: v.pipe(v.array(v.string()), v.description('Numbers of the counties it covers; empty at sea')),
})

// "2; yellow; Moderate" -> "yellow"
const levelOf = (awareness: string): 'yellow' | 'orange' | 'red' => {
  const level = awareness.split(';')[1]?.trim()
  return level === 'orange' || level === 'red' ? level : 'yellow'
}

/** `get_alerts`: the warnings in force; `data` is an object holding the named list `alerts`. */
export const getAlerts = defineOperation({
  name: 'get_alerts',
  description:
    "MET Norway's weather warnings in force (wind, rain, snow, forest fire, gale at sea, ...), for all of Norway or one county.",
  parameters: {
    county: v.optional(
      v.pipe(
        v.picklist(countyNumbers),
        v.description('County number, e.g. 46 for Vestland; all of Norway when left out'),
      ),
    ),
  },
  output: v.object({
    updated_at: v.pipe(v.nullable(v.string()), v.description('When MET last changed the warnings')),
    alerts: v.array(alert),
  }),
  // data is { updated_at, alerts: [...] }: limit and offset page `alerts`, and the core adds has_more_results beside it.
  list: 'alerts',
  cacheTtlSeconds: 300,
  async run(params, ctx) {
    const client = ctx.upstream(metAlerts)
    const response = await client.getJson('/current.json', { query: { lang: 'en', county: params.county } })
    const payload = checkUpstreamShape(client, alertsPayload, response.body, 'the warnings')
    const alerts = payload.features.map(({ properties: p, when }) => ({
      id: p.id,
      event: p.event,
      title: p.title,
      area: p.area,
      level: levelOf(p.awareness_level),
      severity: p.severity,
      certainty: p.certainty,
      starts: when.interval[0],
      ends: when.interval[1],
      description: p.description.trim(),
      instruction: p.instruction?.trim() || null,
      counties: p.county ?? [],
    }))
    return { data: { updated_at: payload.lastChange ?? null, alerts } }
  },
  // Each county a warning covers is an entity, linked by the core to get_alerts?county=<number>.
  entities: (data) =>
    data.alerts.flatMap((a) =>
      a.counties.filter((code) => code in counties).map((code) => ({ type: 'county', id: code, name: counties[code] })),
    ),
})
