import { describe, expect, it } from 'vitest'
import { createGateway } from '@allmenning/core'
import { defineOperation, defineSource, defineUpstream } from '@allmenning/core/source'
import * as v from 'valibot'
import { pointParameters } from './wgs84-point.js'
import { radiusKmParameter } from './radius-parameter.js'

const upstream = defineUpstream({ id: 'none', name: 'None', baseUrl: 'https://none.example.no', publisher: 'Nobody' })
const gateway = createGateway({
  sources: [
    defineSource({
      id: 'points',
      name: 'Points',
      description: 'Echoes a point.',
      documentation: 'https://example.no',
      topic: 'places',
      keywords: ['point'],
      contentLanguages: ['en'],
      cacheTtlSeconds: 1,
      upstreams: [upstream],
      operations: [
        defineOperation({
          name: 'echo',
          description: 'Echoes its parameters.',
          parameters: { ...pointParameters(3), radius_km: radiusKmParameter({ fallback: 10, max: 50 }) },
          output: v.object({ radius_km: v.number() }),
          async run(params) {
            return { data: { radius_km: params.radius_km } }
          },
        }),
      ],
    }),
  ],
})
const call = async (query: string) =>
  JSON.parse((await gateway.handle({ method: 'GET', path: '/api/v1/kilder/points/echo', query, headers: {} })).body!)

describe('radiusKmParameter', () => {
  it('defaults, and names the bound it broke', async () => {
    expect((await call('lat=59.9&lon=10.7')).data.radius_km).toBe(10)
    expect((await call('lat=59.9&lon=10.7&radius_km=0')).error.details).toEqual([
      { parameter: 'radius_km', problem: 'must be greater than 0', rule: 'gt_value' },
    ])
    expect((await call('lat=59.9&lon=10.7&radius_km=51')).error.details).toEqual([
      { parameter: 'radius_km', problem: 'must be at most 50', rule: 'max_value' },
    ])
    const schema = JSON.parse(
      (await gateway.handle({ method: 'GET', path: '/api/v1/kilder/points/echo/schema', query: '', headers: {} }))
        .body!,
    )
    expect(JSON.stringify(schema)).toContain('"exclusiveMinimum":0')
  })
})
