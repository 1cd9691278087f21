/**
 * The price area each county lies in, for the counties of 2024 (and the merged counties of
 * 2020–2023 where the answer is the same). Price-area borders follow the grid, not county
 * borders: Sunnhordland (Vestland) lies in NO2, Nordfjord (Vestland) in NO3 and southern
 * Helgeland (Nordland) partly in NO3, so the county gives the area of most of its people, not
 * of every point. Answers say so.
 */
export const countyPriceAreas: Record<string, { county: string; area: 'NO1' | 'NO2' | 'NO3' | 'NO4' | 'NO5' }> = {
  '03': { county: 'Oslo', area: 'NO1' },
  '31': { county: 'Østfold', area: 'NO1' },
  '32': { county: 'Akershus', area: 'NO1' },
  '33': { county: 'Buskerud', area: 'NO1' },
  '34': { county: 'Innlandet', area: 'NO1' },
  '39': { county: 'Vestfold', area: 'NO1' },
  '30': { county: 'Viken', area: 'NO1' },
  '40': { county: 'Telemark', area: 'NO2' },
  '42': { county: 'Agder', area: 'NO2' },
  '11': { county: 'Rogaland', area: 'NO2' },
  '46': { county: 'Vestland', area: 'NO5' },
  '15': { county: 'Møre og Romsdal', area: 'NO3' },
  '50': { county: 'Trøndelag', area: 'NO3' },
  '18': { county: 'Nordland', area: 'NO4' },
  '55': { county: 'Troms', area: 'NO4' },
  '56': { county: 'Finnmark', area: 'NO4' },
  '54': { county: 'Troms og Finnmark', area: 'NO4' },
}

/** Where the county rule is known to be wrong for some municipalities, by county number. */
export const countyBorderNotes: Record<string, string> = {
  '46': 'Sunnhordland lies in NO2 and Nordfjord in NO3',
  '18': 'southern Helgeland lies partly in NO3',
  '40': 'eastern Telemark may lie in NO1',
  '33': 'western Buskerud may lie in NO5',
}
