/**
 * The OpenAPI tags of the gateway's own routes, with their descriptions. Capitalized, so they
 * never meet a source's tag (source ids are lower case).
 */
export const gatewayTags = {
  Discovery: 'What this gateway serves: the API index, this document, the sources and their operations.',
  Search: 'Sources and entities found by name, number or topic across every source.',
  Places: 'Places by name, and the data bundle of a point, gathered from the sources that know about places.',
  Feedback: 'Feedback to the operators of this gateway about it, a source or an operation.',
  Health: 'How each source is doing, from the answers the gateway has made: nothing is called to tell.',
} as const

export type GatewayTag = keyof typeof gatewayTags
