import type { EntityInput } from '@allmenning/core/source'

/** Names of the bidding zones (price areas) and neighbours that Statnett's data mentions. */
export const priceAreaNames: Record<string, string> = {
  NO1: 'NO1 Øst-Norge (Oslo)',
  NO2: 'NO2 Sør-Norge (Kristiansand)',
  NO3: 'NO3 Midt-Norge (Trondheim)',
  NO4: 'NO4 Nord-Norge (Tromsø)',
  NO5: 'NO5 Vest-Norge (Bergen)',
  SE1: 'SE1 Luleå',
  SE2: 'SE2 Sundsvall',
  SE3: 'SE3 Stockholm',
  SE4: 'SE4 Malmö',
  DK1: 'DK1 Vest-Danmark',
  DK2: 'DK2 Øst-Danmark',
  FI: 'Finland',
  EE: 'Estonia',
  LV: 'Latvia',
  LT: 'Lithuania',
  DE: 'Germany',
  NL: 'Netherlands',
  PL: 'Poland',
  EN: 'Great Britain',
  GB: 'Great Britain',
  RU: 'Russia',
}

export const norwegianPriceAreas = ['NO1', 'NO2', 'NO3', 'NO4', 'NO5'] as const

/** Every area code the physical flow can name, in the order of {@link priceAreaNames}: what `area` accepts. */
export const flowAreas = Object.keys(priceAreaNames) as [string, ...string[]]

/** Whether an area code is one the source knows, and so one its entities may link to. */
export const isKnownArea = (code: string) => Object.hasOwn(priceAreaNames, code)

/** The price area entity for an area code; the source links it to its physical flows. */
export function priceAreaEntity(code: string): EntityInput {
  return {
    type: 'price_area',
    id: code,
    name: priceAreaNames[code] ?? code,
  }
}
