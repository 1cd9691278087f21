import type { PlaceFieldDeclaration } from '@allmenning/core/source'

/** The place fields entur fills, declared apart from their operations so the source's outline names them without loading the operations. */
export const stopsPlaceField: PlaceFieldDeclaration = {
  name: 'stops',
  section: 'transport',
  description: "Public transport stop places near the point, nearest first (Entur's national stop register).",
  // After spec 4.2's sections and fields (whose order runs from 0), in a section of its own.
  order: 100,
  sectionOrder: 100,
}

/** Shared scooters, bicycles and cars free to rent near the point, and their stations. */
export const sharedMobilityPlaceField: PlaceFieldDeclaration = {
  name: 'shared_mobility',
  section: 'transport',
  description:
    "Shared e-scooters, bicycles and cars free to rent within 500 m of the point, and the bike and car stations there, nearest first (Entur's Mobility v2).",
  // After vegvesen's traffic_registration_points (101), in the transport section.
  order: 102,
  sectionOrder: 100,
}
