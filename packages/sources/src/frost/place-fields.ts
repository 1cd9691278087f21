import type { PlaceFieldDeclaration } from '@allmenning/core/source'

/** The place field `frost` fills, declared apart from its operation so the source's outline names it without loading the operation. */
export const weatherStationsPlaceField: PlaceFieldDeclaration = {
  name: 'weather_stations',
  section: 'weather',
  description:
    "MET Norway's weather stations within 10 km of the point, nearest first, with their latest air temperature.",
}
