/** The five Norwegian price areas, as the files name them. */
export const priceAreas = ['NO1', 'NO2', 'NO3', 'NO4', 'NO5'] as const
export type PriceArea = (typeof priceAreas)[number]
