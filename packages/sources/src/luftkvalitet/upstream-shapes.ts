import * as v from 'valibot'

// What airqualityforecast 0.1 sends, as loosely as it varies. Coordinates of stations and
// locations come as strings ("59.9115"); numbers are accepted too. Extra fields are ignored.

/** A number that may arrive as a string, as MET sends coordinates here. */
export const looseNumber = v.union([v.number(), v.pipe(v.string(), v.trim())])

const area = v.nullish(
  v.looseObject({ areacode: v.nullish(v.union([v.string(), v.number()])), name: v.nullish(v.string()) }),
)

/** `GET /stations`: every measuring station the forecast knows. */
export const stationsPayload = v.array(
  v.looseObject({
    name: v.string(),
    eoi: v.string(),
    height: v.nullish(looseNumber),
    latitude: looseNumber,
    longitude: looseNumber,
    kommune: area,
    delomrade: area,
    grunnkrets: area,
  }),
)

const location = v.looseObject({
  name: v.nullish(v.string()),
  path: v.nullish(v.string()),
  areacode: v.nullish(v.union([v.string(), v.number()])),
  areaclass: v.nullish(v.string()),
  latitude: v.nullish(looseNumber),
  longitude: v.nullish(looseNumber),
})

/** `GET /?lat=&lon=` and `GET /?station=`: the forecast for one area or station, hour by hour. */
export const forecastPayload = v.looseObject({
  meta: v.looseObject({
    reftime: v.nullish(v.string()),
    location: v.nullish(location),
    superlocation: v.nullish(location),
  }),
  data: v.looseObject({
    time: v.array(
      v.looseObject({
        from: v.string(),
        to: v.string(),
        variables: v.record(v.string(), v.looseObject({ value: v.nullish(v.number()), units: v.nullish(v.string()) })),
      }),
    ),
  }),
})

/** Reads a coordinate or height MET sent as a number or a numeric string; null when it is neither. */
export function toNumber(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null
  const number = typeof value === 'number' ? value : Number(value)
  return Number.isFinite(number) ? number : null
}
