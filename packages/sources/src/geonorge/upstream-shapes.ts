import * as v from 'valibot'

// What Kartverket's address and place-name APIs send, as loosely as they vary. Keys of the
// place-name API are not ASCII (øst, skrivemåte, språk); its koordsys is a number in some
// answers and a string in others. Extra fields are ignored.

const text = v.nullish(v.string())
const whole = v.nullish(v.number())

/** `metadata` of both APIs: the paging they did. */
const metadata = v.looseObject({ totaltAntallTreff: v.nullish(v.number()) })

/** An address of `/sok` and `/punktsok`. `representasjonspunkt` is in the CRS asked for with `utkoordsys`. */
export const upstreamAddress = v.looseObject({
  adressenavn: text,
  adressetekst: text,
  adressetilleggsnavn: text,
  nummer: whole,
  bokstav: text,
  kommunenummer: text,
  kommunenavn: text,
  gardsnummer: whole,
  bruksnummer: whole,
  festenummer: whole,
  objtype: text,
  poststed: text,
  postnummer: text,
  representasjonspunkt: v.nullish(v.looseObject({ epsg: text, lat: v.number(), lon: v.number() })),
  oppdateringsdato: text,
  meterDistanseTilPunkt: v.nullish(v.number()),
})

export const addressPage = v.looseObject({ metadata: v.nullish(metadata), adresser: v.array(upstreamAddress) })

/** A point of the place-name API; `nord`/`øst` are latitude/longitude in a geographic CRS. */
export const upstreamPoint = v.looseObject({
  nord: v.number(),
  øst: v.number(),
  koordsys: v.nullish(v.union([v.number(), v.string()])),
})

/** One name of a place, with its status and language. */
const upstreamName = v.looseObject({ skrivemåte: v.string(), navnestatus: text, skrivemåtestatus: text, språk: text })

/** A place of `/sted`: the place with all its names. */
export const upstreamPlace = v.looseObject({
  stedsnummer: v.union([v.number(), v.string()]),
  stedstatus: text,
  navneobjekttype: text,
  representasjonspunkt: v.nullish(upstreamPoint),
  stedsnavn: v.optional(v.array(upstreamName), []),
  kommuner: v.nullish(v.array(v.looseObject({ kommunenummer: text, kommunenavn: text }))),
  fylker: v.nullish(v.array(v.looseObject({ fylkesnummer: text, fylkesnavn: text }))),
})

export const placePage = v.looseObject({ metadata: v.nullish(metadata), navn: v.array(upstreamPlace) })

/** A place of `/punkt`: as `/sted`, with its distance, without municipalities and counties. */
export const pointPlacePage = v.looseObject({
  metadata: v.nullish(metadata),
  navn: v.array(v.looseObject({ ...upstreamPlace.entries, meterFraPunkt: v.nullish(v.number()) })),
})

export type UpstreamAddress = v.InferOutput<typeof upstreamAddress>
export type UpstreamPlace = v.InferOutput<typeof upstreamPlace>
