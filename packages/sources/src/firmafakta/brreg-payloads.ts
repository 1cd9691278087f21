import * as v from 'valibot'
import { checkUpstreamShape, type UpstreamClient } from '@allmenning/core/source'

// Shapes of what Enhetsregisteret sends (upstreams.md §1). Loose objects and nullish fields:
// the register omits keys it has no value for, and new keys must not break the gateway.

const text = v.nullish(v.string())
const flag = v.nullish(v.boolean())

const brregCode = v.looseObject({ kode: v.string(), beskrivelse: text })

const brregAddress = v.looseObject({
  adresse: v.nullish(v.array(v.nullable(v.string()))),
  postnummer: text,
  poststed: text,
  kommune: text,
  kommunenummer: text,
  land: text,
  landkode: text,
})

/** `kapital`: the registered share (or other) capital. `belop` arrives as a JSON number, `6392018780.00` too. */
const brregCapital = v.looseObject({
  belop: v.nullish(v.number()),
  antallAksjer: v.nullish(v.number()),
  type: text,
  valuta: text,
  innfortDato: text,
})

/** One earlier name; `fraDato`/`tilDato` are local times written `2006-03-13 20:19:35` (a space, no zone). */
const brregFormerName = v.looseObject({ navn: text, fraDato: text, tilDato: text })

/**
 * One `paategninger` entry (an endorsement on the register record). Only empty lists have been
 * seen in captures; the element keys follow the register's documentation and may be absent.
 */
const brregEndorsement = v.looseObject({ infotype: text, tekst: text, innfoertDato: text })

/**
 * One main entity (`/enheter/{orgnr}`, `_embedded.enheter[]`) or sub-unit, or a 410 body. A
 * deleted unit is answered 200 with `respons_klasse` `SlettetEnhet` / `SlettetUnderEnhet` and
 * only number, name, form, `historiskeNavn` and `slettedato` (sub-units also `nedleggelsesdato`).
 */
export const brregUnitSchema = v.looseObject({
  organisasjonsnummer: v.string(),
  navn: v.string(),
  respons_klasse: text,
  organisasjonsform: v.nullish(brregCode),
  overordnetEnhet: text,
  hjemmeside: text,
  epostadresse: text,
  telefon: text,
  mobil: text,
  postadresse: v.nullish(brregAddress),
  forretningsadresse: v.nullish(brregAddress),
  beliggenhetsadresse: v.nullish(brregAddress),
  naeringskode1: v.nullish(brregCode),
  naeringskode2: v.nullish(brregCode),
  naeringskode3: v.nullish(brregCode),
  antallAnsatte: v.nullish(v.number()),
  harRegistrertAntallAnsatte: flag,
  institusjonellSektorkode: v.nullish(brregCode),
  registreringsdatoEnhetsregisteret: text,
  stiftelsesdato: text,
  oppstartsdato: text,
  nedleggelsesdato: text,
  slettedato: text,
  datoEierskifte: text,
  historiskeNavn: v.nullish(v.array(brregFormerName)),
  kapital: v.nullish(brregCapital),
  erIKonsern: flag,
  hjelpeenhetskode: v.nullish(brregCode),
  vedtektsdato: text,
  registreringsdatoForetaksregisteret: text,
  registreringsdatoMerverdiavgiftsregisteret: text,
  registreringsdatoMerverdiavgiftsregisteretEnhetsregisteret: text,
  registreringsdatoFrivilligMerverdiavgiftsregisteret: text,
  registreringsdatoAntallAnsatteEnhetsregisteret: text,
  registreringsdatoAntallAnsatteNAVAaregisteret: text,
  frivilligMvaRegistrertBeskrivelser: v.nullish(v.array(v.string())),
  tvangsopplostPgaManglendeRegnskapDato: text,
  fravalgRevisjonDato: text,
  fravalgRevisjonBeslutningsDato: text,
  paategninger: v.nullish(v.array(brregEndorsement)),
  registrertIPartiregisteret: flag,
  registrertIMvaregisteret: flag,
  registrertIForetaksregisteret: flag,
  registrertIStiftelsesregisteret: flag,
  registrertIFrivillighetsregisteret: flag,
  konkurs: flag,
  konkursdato: text,
  underAvvikling: flag,
  underAvviklingDato: text,
  underTvangsavviklingEllerTvangsopplosning: flag,
  sisteInnsendteAarsregnskap: text,
  maalform: text,
  aktivitet: v.nullish(v.array(v.string())),
  vedtektsfestetFormaal: v.nullish(v.array(v.string())),
})

/** A unit as Enhetsregisteret sends it. */
export type BrregUnit = v.InferOutput<typeof brregUnitSchema>

/** The Spring HATEOAS `page` block; `number` is 0-based. */
const brregPageInfo = v.looseObject({
  size: v.number(),
  totalElements: v.number(),
  totalPages: v.number(),
  number: v.number(),
})

/**
 * A HAL search page of `/enheter` or `/underenheter`. An empty result has no `_embedded`
 * key at all, so both `_embedded` and the list inside it are optional.
 */
export const brregSearchPageSchema = v.looseObject({
  _embedded: v.optional(
    v.looseObject({
      enheter: v.optional(v.array(brregUnitSchema)),
      underenheter: v.optional(v.array(brregUnitSchema)),
    }),
  ),
  page: brregPageInfo,
})

/** A HAL search page. */
export type BrregSearchPage = v.InferOutput<typeof brregSearchPageSchema>

const brregPersonName = v.looseObject({ fornavn: text, mellomnavn: text, etternavn: text })

/**
 * One role in `/enheter/{orgnr}/roller`: held by a `person`, by an `enhet`, or (a bankrupt
 * estate's administrator, role BOBE) by a `bostyrer`, whose `navn` is one plain string.
 */
const brregRole = v.looseObject({
  type: brregCode,
  person: v.nullish(
    v.looseObject({
      fodselsdato: text,
      navn: v.nullish(brregPersonName),
      erDoed: flag,
    }),
  ),
  enhet: v.nullish(
    v.looseObject({
      organisasjonsnummer: v.string(),
      organisasjonsform: v.nullish(brregCode),
      // An entity's name comes as an array of name lines, unlike every other `navn`.
      navn: v.nullish(v.union([v.array(v.string()), v.string()])),
      erSlettet: flag,
      // An auditor entity says whether it is an approved audit firm.
      godkjenningsstatus: text,
    }),
  ),
  bostyrer: v.nullish(
    v.looseObject({
      navn: v.nullish(v.union([v.string(), v.array(v.string())])),
      postadresse: v.nullish(brregAddress),
      erDoed: flag,
    }),
  ),
  valgtAv: v.nullish(brregCode),
  ansvarsandel: text,
  fratraadt: flag,
  avregistrert: flag,
  rekkefolge: v.nullish(v.number()),
})

/** A role as Enhetsregisteret sends it. */
export type BrregRole = v.InferOutput<typeof brregRole>

/** The body of `/enheter/{orgnr}/roller`. */
export const brregRolesSchema = v.looseObject({
  rollegrupper: v.nullish(
    v.array(
      v.looseObject({
        type: brregCode,
        sistEndret: text,
        roller: v.nullish(v.array(brregRole)),
      }),
    ),
  ),
})

/** The roles body. */
export type BrregRoles = v.InferOutput<typeof brregRolesSchema>

/**
 * Checks a Brønnøysund body against its expected shape (a 502 naming Brønnøysund when it
 * does not match).
 *
 * @example
 * const unit = parseBrreg(brregUnitSchema, res.body, client, 'an entity')
 */
export function parseBrreg<S extends v.GenericSchema>(
  schema: S,
  body: unknown,
  client: Pick<UpstreamClient, 'id' | 'name'>,
  what: string,
): v.InferOutput<S> {
  return checkUpstreamShape(client, schema, body, what)
}
