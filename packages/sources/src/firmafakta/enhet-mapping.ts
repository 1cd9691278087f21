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

const kapitalSchema = v.object({
  belop: v.pipe(v.nullable(v.number()), v.description('The capital, in valuta')),
  antallAksjer: v.nullable(v.number()),
  type: v.pipe(v.nullable(v.string()), v.description('e.g. Aksjekapital')),
  valuta: v.nullable(v.string()),
  innfortDato: v.nullable(v.string()),
})

const historiskNavnSchema = v.object({
  navn: v.nullable(v.string()),
  fraDato: v.pipe(v.nullable(v.string()), v.description('Local time as the register writes it: "2006-03-13 20:19:35"')),
  tilDato: v.pipe(v.nullable(v.string()), v.description('Local time as the register writes it: "2019-11-20 12:44:57"')),
})

const paategningSchema = v.object({
  infotype: v.nullable(v.string()),
  tekst: v.nullable(v.string()),
  innfoertDato: v.nullable(v.string()),
})

const optionalDate = (what: string) => v.pipe(v.nullable(v.string()), v.description(what))

/**
 * The facts of one unit: a main entity (`hovedenhet`) or a sub-unit (`underenhet`), active or
 * removed. A removed unit keeps only what Brønnøysund says of it (number, name, form, earlier
 * names, `slettedato`, for a sub-unit `nedleggelsesdato`); the rest is null or empty.
 *
 * @example
 * v.parse(enhetsdetaljerSchema, toEnhetsdetaljer(unit, 'hovedenhet'))
 */
export const enhetsdetaljerSchema = v.object({
  organisasjonsnummer: v.string(),
  navn: v.string(),
  enhetstype: v.picklist(['hovedenhet', 'underenhet']),
  status: v.pipe(
    v.picklist(['active', 'removed']),
    v.description('removed: deleted from Enhetsregisteret (on slettedato); every other unit is active'),
  ),
  slettedato: optionalDate('The day the unit was deleted from the register; null while it exists'),
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
  historiskeNavn: v.array(historiskNavnSchema),
  kapital: v.nullable(kapitalSchema),
  erIKonsern: v.nullable(v.boolean()),
  hjelpeenhetskode: v.nullable(code),
  vedtektsdato: v.nullable(v.string()),
  registreringsdatoForetaksregisteret: v.nullable(v.string()),
  registreringsdatoMerverdiavgiftsregisteret: v.nullable(v.string()),
  registreringsdatoMerverdiavgiftsregisteretEnhetsregisteret: v.nullable(v.string()),
  registreringsdatoFrivilligMerverdiavgiftsregisteret: v.nullable(v.string()),
  registreringsdatoAntallAnsatteEnhetsregisteret: v.nullable(v.string()),
  registreringsdatoAntallAnsatteNAVAaregisteret: v.nullable(v.string()),
  frivilligMvaRegistrertBeskrivelser: v.array(v.string()),
  registrertIPartiregisteret: v.nullable(v.boolean()),
  tvangsopplostPgaManglendeRegnskapDato: optionalDate('Day of forced dissolution for want of annual accounts'),
  fravalgRevisjonDato: optionalDate('Day the opt-out from audit was registered'),
  fravalgRevisjonBeslutningsDato: optionalDate('Day the opt-out from audit was decided'),
  datoEierskifte: optionalDate('Sub-units: day the establishment changed owner'),
  paategninger: v.array(paategningSchema),
})

/** The facts of one unit. */
export type Enhetsdetaljer = v.InferOutput<typeof enhetsdetaljerSchema>

type BrregCode = NonNullable<BrregUnit['organisasjonsform']>
type BrregCapital = NonNullable<BrregUnit['kapital']>
type BrregAddress = NonNullable<BrregUnit['postadresse']>

function toCode(value: BrregCode | null | undefined): Enhetsdetaljer['organisasjonsform'] {
  return value ? { kode: value.kode, beskrivelse: value.beskrivelse ?? null } : null
}

/**
 * An address with every key present; blank lines dropped. A foreign address (a NUF's
 * forretningsadresse) has no postnummer, kommune or kommunenummer: those stay null.
 *
 * @example
 * toAdresse({ adresse: ['Hauptstraße 5'], land: 'Tyskland', landkode: 'DE' })?.kommune // null
 */
export function toAdresse(value: BrregAddress | null | undefined): Enhetsdetaljer['postadresse'] {
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

function toKapital(value: BrregCapital | null | undefined): Enhetsdetaljer['kapital'] {
  if (!value) return null
  return {
    belop: value.belop ?? null,
    antallAksjer: value.antallAksjer ?? null,
    type: value.type ?? null,
    valuta: value.valuta ?? null,
    innfortDato: value.innfortDato ?? null,
  }
}

/**
 * Whether Brønnøysund's body itself says the unit is deleted. The service answers a deleted
 * unit with 200 (not the documented 410) and `respons_klasse` `SlettetEnhet` or
 * `SlettetUnderEnhet`; `slettedato` is the same fact where the class is missing.
 *
 * @example
 * isDeletedUnit({ respons_klasse: 'SlettetEnhet', slettedato: '2025-06-30' }) // true
 */
export function isDeletedUnit(unit: Pick<BrregUnit, 'respons_klasse' | 'slettedato'>): boolean {
  return (unit.respons_klasse ?? '').startsWith('Slettet') || Boolean(unit.slettedato)
}

/**
 * Maps a unit from Enhetsregisteret onto {@link enhetsdetaljerSchema}: Brønnøysund's own field
 * names kept (clients read `naeringskode1` directly), the three numbered industry codes also
 * gathered into one list, `_links` dropped, absent keys made explicit nulls so every response
 * has the same keys.
 *
 * The unit is `removed` when the body says so ({@link isDeletedUnit}) or when Brønnøysund
 * answered it with 410 (`answeredGone`).
 *
 * @example
 * toEnhetsdetaljer(unit, 'hovedenhet').naeringskoder[0]?.kode // '56.101'
 */
export function toEnhetsdetaljer(
  unit: BrregUnit,
  enhetstype: Enhetsdetaljer['enhetstype'],
  answeredGone = false,
): Enhetsdetaljer {
  const naeringskoder = [unit.naeringskode1, unit.naeringskode2, unit.naeringskode3]
    .map(toCode)
    .filter((value): value is NonNullable<typeof value> => value !== null)
  return {
    organisasjonsnummer: unit.organisasjonsnummer,
    navn: unit.navn,
    enhetstype,
    status: answeredGone || isDeletedUnit(unit) ? 'removed' : 'active',
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
    historiskeNavn: (unit.historiskeNavn ?? []).map((name) => ({
      navn: name.navn ?? null,
      fraDato: name.fraDato ?? null,
      tilDato: name.tilDato ?? null,
    })),
    kapital: toKapital(unit.kapital),
    erIKonsern: unit.erIKonsern ?? null,
    hjelpeenhetskode: toCode(unit.hjelpeenhetskode),
    vedtektsdato: unit.vedtektsdato ?? null,
    registreringsdatoForetaksregisteret: unit.registreringsdatoForetaksregisteret ?? null,
    registreringsdatoMerverdiavgiftsregisteret: unit.registreringsdatoMerverdiavgiftsregisteret ?? null,
    registreringsdatoMerverdiavgiftsregisteretEnhetsregisteret:
      unit.registreringsdatoMerverdiavgiftsregisteretEnhetsregisteret ?? null,
    registreringsdatoFrivilligMerverdiavgiftsregisteret:
      unit.registreringsdatoFrivilligMerverdiavgiftsregisteret ?? null,
    registreringsdatoAntallAnsatteEnhetsregisteret: unit.registreringsdatoAntallAnsatteEnhetsregisteret ?? null,
    registreringsdatoAntallAnsatteNAVAaregisteret: unit.registreringsdatoAntallAnsatteNAVAaregisteret ?? null,
    frivilligMvaRegistrertBeskrivelser: unit.frivilligMvaRegistrertBeskrivelser ?? [],
    registrertIPartiregisteret: unit.registrertIPartiregisteret ?? null,
    tvangsopplostPgaManglendeRegnskapDato: unit.tvangsopplostPgaManglendeRegnskapDato ?? null,
    fravalgRevisjonDato: unit.fravalgRevisjonDato ?? null,
    fravalgRevisjonBeslutningsDato: unit.fravalgRevisjonBeslutningsDato ?? null,
    datoEierskifte: unit.datoEierskifte ?? null,
    paategninger: (unit.paategninger ?? []).map((entry) => ({
      infotype: entry.infotype ?? null,
      tekst: entry.tekst ?? null,
      innfoertDato: entry.innfoertDato ?? null,
    })),
  }
}
