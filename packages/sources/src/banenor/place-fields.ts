import type { PlaceFieldDeclaration } from '@allmenning/core/source'

/** The nearest railway stations, with their Bane NOR codes for the station board. */
export const trainStationsPlaceField: PlaceFieldDeclaration = {
  name: 'train_stations',
  section: 'transport',
  description:
    "The nearest railway stations, nearest first, with Bane NOR's station code that get_station_board takes.",
  // After entur's stops (100), vegvesen's fields (101) and entur's shared_mobility (102), in the transport section.
  order: 103,
  sectionOrder: 100,
}
