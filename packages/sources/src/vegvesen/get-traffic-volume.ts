import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { checkUpstreamShape, defineOperation, UpstreamError } from '@allmenning/core/source'
import { postGraphql } from '../shared/graphql-request.js'
import type { RegistrationPointList } from './registration-points.js'
import { vegvesenTrafikkdata } from './trafikkdata-upstream.js'
import { periodBoundPattern, volumePeriod, type Resolution } from './volume-period.js'

/** Trafikkdata gives at most 100 hours or days a page. */
const PAGE_SIZE = 100

/** The volumes of one point, a page at a time; `byHour` or `byDay` is put in. */
export const volumeQuery = (
  field: 'byHour' | 'byDay',
) => `query Volumes($id: String!, $from: ZonedDateTime!, $to: ZonedDateTime!, $after: String) {
  trafficData(trafficRegistrationPointId: $id) {
    volume {
      ${field}(from: $from, to: $to, first: ${PAGE_SIZE}, after: $after) {
        edges { node { from to total { volumeNumbers { volume } coverage { percentage } } } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
}`

const page = v.looseObject({
  edges: v.array(
    v.looseObject({
      node: v.looseObject({
        from: v.string(),
        to: v.string(),
        total: v.optional(
          v.nullable(
            v.looseObject({
              // null when nothing was registered in the hour or day.
              volumeNumbers: v.optional(v.nullable(v.looseObject({ volume: v.optional(v.nullable(v.number())) }))),
              coverage: v.optional(v.nullable(v.looseObject({ percentage: v.optional(v.nullable(v.number())) }))),
            }),
          ),
        ),
      }),
    }),
  ),
  pageInfo: v.looseObject({ hasNextPage: v.boolean(), endCursor: v.optional(v.nullable(v.string())) }),
})

const answerOf = (field: 'byHour' | 'byDay') =>
  v.looseObject({
    trafficData: v.nullable(v.looseObject({ volume: v.nullable(v.looseObject({ [field]: v.nullable(page) })) })),
  })

const volumeRow = v.object({
  from: v.pipe(v.string(), v.description('Start of the hour or day, ISO 8601 with the Oslo offset')),
  to: v.pipe(v.string(), v.description('End of the hour or day')),
  volume: v.pipe(
    v.nullable(v.number()),
    v.description('Vehicles (or bicycles) counted in both directions; null when nothing was registered'),
  ),
  coverage_percent: v.pipe(
    v.nullable(v.number()),
    v.description(
      'Share of the period with working registration, in per cent; Vegvesen asks users to weigh volumes by it',
    ),
  ),
})

/**
 * Builds `get_traffic_volume`: hourly or daily volumes at one registration point for a bounded
 * period, every page of Vegvesen's answer read.
 *
 * @example
 * const op = createGetTrafficVolume(createRegistrationPointList())
 */
export function createGetTrafficVolume(list: RegistrationPointList, now: () => number = Date.now) {
  return defineOperation({
    description:
      "Traffic volumes at one of Statens vegvesen's registration points, hour by hour (at most 7 days) or day by day (at most 366 days), both directions together, with the coverage of each period. The last 24 hours (or 31 days) when from and to are left out.",
    parameters: {
      registration_point_id: v.pipe(
        v.string(),
        v.trim(),
        // Digits, a letter, digits: V on the points Vegvesen documents; the letter is not relied on.
        v.regex(/^\d{1,10}[A-Z]\d{1,10}$/, 'must be a registration point id such as 44656V72812'),
        v.description('Id of the registration point, e.g. 44656V72812 (find it with find_registration_points_nearby)'),
      ),
      resolution: v.optional(
        v.pipe(v.picklist(['hour', 'day']), v.description('hour or day; hour when left out')),
        'hour',
      ),
      from: v.optional(
        v.pipe(
          v.string(),
          v.regex(periodBoundPattern, 'must be a day (2026-11-24) or a time with its zone (2026-11-24T06:00:00+01:00)'),
          v.description('Start: a day (midnight in Oslo) or a time with its zone'),
        ),
      ),
      to: v.optional(
        v.pipe(
          v.string(),
          v.regex(periodBoundPattern, 'must be a day (2026-11-25) or a time with its zone (2026-11-25T06:00:00+01:00)'),
          v.description('End, not included: a day (midnight in Oslo) or a time with its zone'),
        ),
      ),
    },
    output: v.object({
      registration_point_id: v.pipe(v.string(), v.description('Id of the registration point')),
      name: v.pipe(v.string(), v.description('Name of the registration point')),
      resolution: v.pipe(v.picklist(['hour', 'day']), v.description('hour or day')),
      from: v.pipe(v.string(), v.description('Start of the period asked, as sent to Vegvesen')),
      to: v.pipe(v.string(), v.description('End of the period asked, as sent to Vegvesen')),
      volumes: v.pipe(v.array(volumeRow), v.description('One row per hour or day, oldest first')),
    }),
    list: 'volumes',
    limit: { default: 168, max: 366 },
    canonicalFieldAliases: { timestamp: ['volumes[].from'], name: ['name'] },
    // Volumes arrive hour by hour, some time after the hour.
    cacheTtlSeconds: 900,

    async run(params, ctx) {
      const resolution = params.resolution as Resolution
      const period = volumePeriod(resolution, params.from, params.to, now())
      const client = ctx.upstream(vegvesenTrafikkdata)
      const point = (await list.get(client)).find((p) => p.id === params.registration_point_id)
      if (!point)
        throw new GatewayError(
          404,
          'entity_not_found',
          `Statens vegvesen lists no registration point ${params.registration_point_id}`,
        )
      const field = resolution === 'hour' ? 'byHour' : 'byDay'
      const answer = answerOf(field)
      const volumes: v.InferOutput<typeof volumeRow>[] = []
      let after: string | null = null
      // 168 hours are two pages, 366 days four; a fifth would mean Vegvesen pages differently.
      for (let pages = 0; ; pages++) {
        if (pages === 5)
          throw new UpstreamError(
            client,
            'invalid_response',
            `kept paging past ${5 * PAGE_SIZE} rows for a bounded period`,
          )
        const { data } = await postGraphql(client, '/', {
          query: volumeQuery(field),
          variables: { id: point.id, ...period, after },
        })
        const got = checkUpstreamShape(client, answer, data, 'the traffic volumes')
        const byPeriod = got.trafficData?.volume?.[field] as v.InferOutput<typeof page> | null | undefined
        if (!byPeriod)
          throw new GatewayError(
            404,
            'entity_not_found',
            `Statens vegvesen has no volumes for registration point ${point.id}`,
          )
        for (const { node } of byPeriod.edges) {
          volumes.push({
            from: node.from,
            to: node.to,
            volume: node.total?.volumeNumbers?.volume ?? null,
            coverage_percent: node.total?.coverage?.percentage ?? null,
          })
        }
        if (!byPeriod.pageInfo.hasNextPage) break
        if (!byPeriod.pageInfo.endCursor)
          throw new UpstreamError(client, 'invalid_response', 'said there is a next page of volumes but gave no cursor')
        after = byPeriod.pageInfo.endCursor
      }
      return { data: { registration_point_id: point.id, name: point.name, resolution, ...period, volumes } }
    },

    entities: (data) => [{ type: 'traffic_registration_point', id: data.registration_point_id, name: data.name }],
  })
}
