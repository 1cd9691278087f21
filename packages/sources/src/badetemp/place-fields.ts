import type { PlaceFieldDeclaration } from '@allmenning/core/source'

/** The place field `badetemp` fills, declared apart from its operation so the source's outline names it without loading the operation. */
export const waterTemperaturesPlaceField: PlaceFieldDeclaration = {
  name: 'water_temperatures',
  section: 'weather',
  description:
    'Bathing water temperatures measured in the last five days at the nearest points within 50 km (Badetemperaturer levert av Yr).',
}
