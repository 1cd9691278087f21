import * as v from 'valibot'
import type { BrregUnit } from './brreg-payloads.js'

const code = v.object({ kode: v.string(), beskrivelse: v.nullable(v.string()) })

/** A postal, business or location address as the register keeps it. */
export const adresseSchema = v.object({
  adresse: v.array(v.string()),
  postnummer: v.nullable(v.string()),
  poststed: v.nullable(v.string()),
  kommune: v.nullable(v.string()),
  kommunenummer: v.nullable(v.string()),
  land: v.nullable(v.string()),
  landkode: v.nullable(v.string()),
})

/**
 * The facts of one unit: a main entity (`hovedenhet`) or a sub-unit (`underenhet`), active or
 * removed. A removed unit keeps only what Brønnøysund's 410 body says; the rest is null.
 *
 * @example
 * v.parse(enhetsdetaljerSchema, toEnhetsdetaljer(unit, 'hovedenhet', 'active'))
 */
export const enhetsdetaljerSchema = v.object({
  organisasjonsnummer: v.string(),
  navn: v.string(),
  enhetstype: v.picklist(['hovedenhet', 'underenhet']),
  status: v.picklist(['active', 'removed']),
  slettedato: v.nullable(v.string()),
  organisasjonsform: v.nullable(code),
  overordnetEnhet: v.nullable(v.string()),
  naeringskode1: v.nullable(code),
  naeringskode2: v.nullable(code),
  naeringskode3: v.nullable(code),
  naeringskoder: v.array(code),
  antallAnsatte: v.nullable(v.number()),
  harRegistrertAntallAnsatte: v.nullable(v.boolean()),
  forretningsadresse: v.nullable(adresseSchema),
  beliggenhetsadresse: v.nullable(adresseSchema),
  postadresse: v.nullable(adresseSchema),
  hjemmeside: v.nullable(v.string()),
  epostadresse: v.nullable(v.string()),
  telefon: v.nullable(v.string()),
  mobil: v.nullable(v.string()),
  registreringsdatoEnhetsregisteret: v.nullable(v.string()),
  stiftelsesdato: v.nullable(v.string()),
  oppstartsdato: v.nullable(v.string()),
  nedleggelsesdato: v.nullable(v.string()),
  institusjonellSektorkode: v.nullable(code),
  registrertIMvaregisteret: v.nullable(v.boolean()),
  registrertIForetaksregisteret: v.nullable(v.boolean()),
  registrertIStiftelsesregisteret: v.nullable(v.boolean()),
  registrertIFrivillighetsregisteret: v.nullable(v.boolean()),
  konkurs: v.nullable(v.boolean()),
  konkursdato: v.nullable(v.string()),
  underAvvikling: v.nullable(v.boolean()),
  underAvviklingDato: v.nullable(v.string()),
  underTvangsavviklingEllerTvangsopplosning: v.nullable(v.boolean()),
  sisteInnsendteAarsregnskap: v.nullable(v.string()),
  maalform: v.nullable(v.string()),
  aktivitet: v.array(v.string()),
  vedtektsfestetFormaal: v.array(v.string()),
})

/** The facts of one unit. */
export type Enhetsdetaljer = v.InferOutput<typeof enhetsdetaljerSchema>

type BrregCode = NonNullable<BrregUnit['organisasjonsform']>
type BrregAddress = NonNullable<BrregUnit['postadresse']>

function toCode(value: BrregCode | null | undefined): Enhetsdetaljer['organisasjonsform'] {
  return value ? { kode: value.kode, beskrivelse: value.beskrivelse ?? null } : null
}

function toAdresse(value: BrregAddress | null | undefined): Enhetsdetaljer['postadresse'] {
  if (!value) return null
  return {
    adresse: (value.adresse ?? []).filter((line): line is string => typeof line === 'string' && line !== ''),
    postnummer: value.postnummer ?? null,
    poststed: value.poststed ?? null,
    kommune: value.kommune ?? null,
    kommunenummer: value.kommunenummer ?? null,
    land: value.land ?? null,
    landkode: value.landkode ?? null,
  }
}

/**
 * Maps a unit from Enhetsregisteret onto {@link enhetsdetaljerSchema}: Brønnøysund's own field
 * names kept (clients read `naeringskode1` directly), the three numbered industry codes also
 * gathered into one list, `_links` dropped, absent keys made explicit nulls so every response
 * has the same keys.
 *
 * @example
 * toEnhetsdetaljer(unit, 'hovedenhet', 'active').naeringskoder[0]?.kode // '56.101'
 */
export function toEnhetsdetaljer(
  unit: BrregUnit,
  enhetstype: Enhetsdetaljer['enhetstype'],
  status: Enhetsdetaljer['status'],
): Enhetsdetaljer {
  const naeringskoder = [unit.naeringskode1, unit.naeringskode2, unit.naeringskode3]
    .map(toCode)
    .filter((value): value is NonNullable<typeof value> => value !== null)
  return {
    organisasjonsnummer: unit.organisasjonsnummer,
    navn: unit.navn,
    enhetstype,
    status,
    slettedato: unit.slettedato ?? null,
    organisasjonsform: toCode(unit.organisasjonsform),
    overordnetEnhet: unit.overordnetEnhet ?? null,
    naeringskode1: toCode(unit.naeringskode1),
    naeringskode2: toCode(unit.naeringskode2),
    naeringskode3: toCode(unit.naeringskode3),
    naeringskoder,
    antallAnsatte: unit.antallAnsatte ?? null,
    harRegistrertAntallAnsatte: unit.harRegistrertAntallAnsatte ?? null,
    forretningsadresse: toAdresse(unit.forretningsadresse),
    beliggenhetsadresse: toAdresse(unit.beliggenhetsadresse),
    postadresse: toAdresse(unit.postadresse),
    hjemmeside: unit.hjemmeside ?? null,
    epostadresse: unit.epostadresse ?? null,
    telefon: unit.telefon ?? null,
    mobil: unit.mobil ?? null,
    registreringsdatoEnhetsregisteret: unit.registreringsdatoEnhetsregisteret ?? null,
    stiftelsesdato: unit.stiftelsesdato ?? null,
    oppstartsdato: unit.oppstartsdato ?? null,
    nedleggelsesdato: unit.nedleggelsesdato ?? null,
    institusjonellSektorkode: toCode(unit.institusjonellSektorkode),
    registrertIMvaregisteret: unit.registrertIMvaregisteret ?? null,
    registrertIForetaksregisteret: unit.registrertIForetaksregisteret ?? null,
    registrertIStiftelsesregisteret: unit.registrertIStiftelsesregisteret ?? null,
    registrertIFrivillighetsregisteret: unit.registrertIFrivillighetsregisteret ?? null,
    konkurs: unit.konkurs ?? null,
    konkursdato: unit.konkursdato ?? null,
    underAvvikling: unit.underAvvikling ?? null,
    underAvviklingDato: unit.underAvviklingDato ?? null,
    underTvangsavviklingEllerTvangsopplosning: unit.underTvangsavviklingEllerTvangsopplosning ?? null,
    sisteInnsendteAarsregnskap: unit.sisteInnsendteAarsregnskap ?? null,
    maalform: unit.maalform ?? null,
    aktivitet: unit.aktivitet ?? [],
    vedtektsfestetFormaal: unit.vedtektsfestetFormaal ?? [],
  }
}
