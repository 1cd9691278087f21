import * as v from 'valibot'

// What Digitalarkivet's 1910 census API sends, as much of it as this source reads. Every field is
// optional and may be null: the API leaves out what a record lacks (most visibly `coordinates`),
// and older answers wrote numbers and coordinates as text (`"latitude": "61.17"`,
// `"total_found": "181"`), so a number may come as either.

const text = v.optional(v.nullable(v.union([v.string(), v.number()])))

/** A person of a dwelling place, as `include_persons=1` adds them. */
export const censusPersonPayload = v.looseObject({
  id: text,
  fornavn: text,
  patronymikon: text,
  slektsnavn: text,
  kjonn: text,
  familiestilling: text,
  sivilstand: text,
  yrke: text,
  fodselsaar: text,
  fodested: text,
})

/** One dwelling place (bosted) of the census: a farm or holding, or a street address in a town. */
export const censusPropertyPayload = v.looseObject({
  efid: text,
  autoid: text,
  gaardsnavn_gateadr: text,
  bruksnavn: text,
  gaardsnr: text,
  bruksnr: text,
  fylke: text,
  kommune_sokn: text,
  hendelsesdato: text,
  tittel: text,
  tittel_en: text,
  kildenavn: text,
  coordinates: v.optional(v.nullable(v.looseObject({ lat: text, lon: text }))),
  latitude: text,
  longitude: text,
  // Each person is checked on its own (see residentsOf), so one odd record does not lose the place.
  persons: v.optional(v.nullable(v.array(v.unknown()))),
})

/** The answer of `search_property_geo`: one page of `results`, with the count of all hits. */
export const censusSearchPayload = v.looseObject({
  count: text,
  total_found: text,
  results: v.array(v.unknown()),
})

/**
 * The answer of `property/{id}` (not seen in a capture: written to what public clients read, the
 * record under `property`, with its `persons` and, for a town address, its `apartments`).
 */
export const censusPropertyAnswerPayload = v.looseObject({
  property: v.optional(v.nullable(v.unknown())),
  persons: v.optional(v.nullable(v.array(v.unknown()))),
  apartments: v.optional(v.nullable(v.array(v.unknown()))),
})

export type CensusPropertyPayload = v.InferOutput<typeof censusPropertyPayload>
export type CensusPersonPayload = v.InferOutput<typeof censusPersonPayload>
