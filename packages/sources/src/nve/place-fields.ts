import type { PlaceFieldDeclaration } from '@allmenning/core/source'

/** The place field nve fills, declared apart from its operation so the source's outline names it without loading the operation. */
export const hazardWarningsPlaceField: PlaceFieldDeclaration = {
  name: 'hazard_warnings',
  section: 'hazards',
  description: "Today's flood, landslide and avalanche warnings (NVE, Varsom) for the point's municipality and avalanche region.",
}
