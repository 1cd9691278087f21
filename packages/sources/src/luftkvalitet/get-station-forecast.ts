import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { defineOperation, UpstreamError } from '@allmenning/core/source'
import { forecastOutput, withClientViews } from './forecast-mapping.js'
import type { AirForecastStore } from './forecast-store.js'
import { metAirquality } from './met-airquality-upstream.js'
import type { StationList } from './station-list.js'

/**
 * Builds `get_station_forecast`: MET's air-quality forecast at one measuring station.
 *
 * @example
 * const op = createGetStationForecast(createStationList(), createAirForecastStore(metRequestBudget))
 * const { data } = await op.run({ station_id: 'NO0057A', limit: 100, offset: 0 }, ctx)
 */
export function createGetStationForecast(stations: StationList, store: AirForecastStore) {
  return defineOperation({
    description:
      "MET Norway's air-quality forecast at one measuring station, hour by hour, in the same shape as " +
      'get_air_quality_forecast. A station code that is not in MET’s station list is a 404.',
    parameters: {
      station_id: v.pipe(
        v.string(),
        v.trim(),
        v.toUpperCase(),
        v.regex(/^[A-Z]{2}\d{4}[A-Z]$/, 'must be a station code such as NO0057A (get_air_quality_nearby lists them)'),
        v.description('EoI code of the station, e.g. NO0057A, as get_air_quality_nearby gives it'),
      ),
    },
    output: forecastOutput,
    list: 'times',
    limit: { default: 100, max: 100 },
    cacheTtlSeconds: 1800,
    canonicalFieldAliases: { name: ['location.name'], timestamp: ['times[].from', 'reftime'] },
    shapeNote: 'The same shape as get_air_quality_forecast.',

    async run(params, ctx) {
      const client = ctx.upstream(metAirquality)
      const list = await stations.load(client).catch((error: unknown) => {
        // The list only guards against typos; without it the forecast is still worth asking for.
        if (error instanceof UpstreamError) return undefined
        throw error
      })
      if (list && !list.some((station) => station.station_id === params.station_id)) {
        throw new GatewayError(
          404,
          'entity_not_found',
          `No air-quality station ${params.station_id} in MET's station list`,
        )
      }
      const target = { station: params.station_id }
      const forecast = await store.load(client, target)
      return { data: withClientViews(forecast, params, Date.now()), sourceApi: store.url(client, target) }
    },
  })
}
