import type { PlaceFieldDeclaration } from '@allmenning/core/source'

/** The place field vegvesen fills, declared apart from its operation so the source's outline names it without loading the operation. */
export const trafficRegistrationPointsPlaceField: PlaceFieldDeclaration = {
  name: 'traffic_registration_points',
  section: 'transport',
  description:
    "Statens vegvesen's traffic counters near the point, nearest first; get_traffic_volume gives their hourly and daily volumes.",
  // Beside entur's stops, after spec 4.2's sections and fields.
  order: 101,
  sectionOrder: 100,
}

/** The place field of `get_traffic_messages`: the traffic messages near the point. */
export const trafficMessagesPlaceField: PlaceFieldDeclaration = {
  name: 'traffic_messages',
  section: 'transport',
  description:
    "Statens vegvesen's traffic messages in force near the point (road works, closures, accidents), nearest first.",
  order: 102,
  sectionOrder: 100,
}
