import type { PlaceFieldDeclaration } from '@allmenning/core/source'

/** The place field nve fills, declared apart from its operation so the source's outline names it without loading the operation. */
export const hazardWarningsPlaceField: PlaceFieldDeclaration = {
  name: 'hazard_warnings',
  section: 'hazards',
  description:
    "Today's flood, landslide and avalanche warnings (NVE, Varsom) for the point's municipality and avalanche region.",
}

/** The place field `find_hydro_stations` fills: the stations near the point that have recent data, with their latest levels. */
export const hydroStationsPlaceField: PlaceFieldDeclaration = {
  name: 'hydro_stations',
  section: 'hazards',
  description:
    "NVE's hydrological stations within 20 km of the point with data from the last week, nearest first, with their latest water level and discharge (HydAPI).",
}
