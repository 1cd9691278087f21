import * as v from 'valibot'
import type { BrregRole, BrregRoles } from './brreg-payloads.js'
import { adresseSchema, toAdresse } from './enhet-mapping.js'

/**
 * One role. `innehaver` says who holds it: a `person` (name, birth year, whether deceased), an
 * `enhet` (organisation number, form, name, whether deleted, an auditor's approval) or a
 * `bostyrer`, the administrator of a bankrupt estate (name and postal address); the fields of
 * the other kinds are null. A role with none of them is `ukjent`.
 */
export const rolleSchema = v.object({
  rolle: v.string(),
  beskrivelse: v.nullable(v.string()),
  innehaver: v.picklist(['person', 'enhet', 'bostyrer', 'ukjent']),
  navn: v.nullable(v.string()),
  fodselsaar: v.nullable(v.number()),
  erDoed: v.nullable(v.boolean()),
  organisasjonsnummer: v.nullable(v.string()),
  organisasjonsform: v.nullable(v.string()),
  erSlettet: v.nullable(v.boolean()),
  godkjenningsstatus: v.pipe(
    v.nullable(v.string()),
    v.description('An auditor entity: e.g. "Godkjent revisjonsforetak"'),
  ),
  postadresse: v.pipe(v.nullable(adresseSchema), v.description("A bostyrer's postal address")),
  valgtAv: v.nullable(v.string()),
  ansvarsandel: v.nullable(v.string()),
  fratraadt: v.boolean(),
  avregistrert: v.boolean(),
  rekkefolge: v.nullable(v.number()),
})

/** One role. */
export type Rolle = v.InferOutput<typeof rolleSchema>

/** A role group (board, chief executive, auditor, partners, ...) with every role in it. */
export const rollegruppeSchema = v.object({
  kode: v.string(),
  beskrivelse: v.nullable(v.string()),
  sistEndret: v.nullable(v.string()),
  roller: v.array(rolleSchema),
})

/** A role group. */
export type Rollegruppe = v.InferOutput<typeof rollegruppeSchema>

/**
 * "1981-04-17" → 1981. Only the year leaves the gateway: see the `roller_i_enhet`
 * description for why.
 */
function birthYear(date: string | null | undefined): number | null {
  const match = /^(\d{4})-/.exec(date ?? '')
  return match?.[1] ? Number(match[1]) : null
}

function personName(name: NonNullable<NonNullable<BrregRole['person']>['navn']>): string | null {
  const joined = [name.fornavn, name.mellomnavn, name.etternavn]
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .map((part) => part.trim())
    .join(' ')
  return joined === '' ? null : joined
}

function entityName(name: string[] | string | null | undefined): string | null {
  // Long entity names arrive split over several lines; they belong together with a space. A
  // bostyrer's name is one plain string.
  const joined = (Array.isArray(name) ? name : [name ?? ''])
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ')
  return joined === '' ? null : joined
}

/**
 * Maps one role, keeping resigned and deregistered roles (marked `fratraadt`, `avregistrert`)
 * rather than dropping them: a board member who resigned yesterday is a fact users ask about.
 *
 * @example
 * toRolle(role).fodselsaar // 1981, never the full date
 */
export function toRolle(role: BrregRole): Rolle {
  const common = {
    rolle: role.type.kode,
    beskrivelse: role.type.beskrivelse ?? null,
    valgtAv: role.valgtAv?.beskrivelse ?? role.valgtAv?.kode ?? null,
    ansvarsandel: role.ansvarsandel ?? null,
    fratraadt: role.fratraadt ?? false,
    avregistrert: role.avregistrert ?? false,
    rekkefolge: role.rekkefolge ?? null,
  }
  if (role.person) {
    return {
      ...common,
      innehaver: 'person',
      navn: role.person.navn ? personName(role.person.navn) : null,
      fodselsaar: birthYear(role.person.fodselsdato),
      erDoed: role.person.erDoed ?? null,
      organisasjonsnummer: null,
      organisasjonsform: null,
      erSlettet: null,
      godkjenningsstatus: null,
      postadresse: null,
    }
  }
  if (role.enhet) {
    return {
      ...common,
      innehaver: 'enhet',
      navn: entityName(role.enhet.navn),
      fodselsaar: null,
      erDoed: null,
      organisasjonsnummer: role.enhet.organisasjonsnummer,
      organisasjonsform: role.enhet.organisasjonsform?.kode ?? null,
      erSlettet: role.enhet.erSlettet ?? null,
      godkjenningsstatus: role.enhet.godkjenningsstatus ?? null,
      postadresse: null,
    }
  }
  if (role.bostyrer) {
    return {
      ...common,
      innehaver: 'bostyrer',
      navn: entityName(role.bostyrer.navn),
      fodselsaar: null,
      erDoed: role.bostyrer.erDoed ?? null,
      organisasjonsnummer: null,
      organisasjonsform: null,
      erSlettet: null,
      godkjenningsstatus: null,
      postadresse: toAdresse(role.bostyrer.postadresse),
    }
  }
  return {
    ...common,
    innehaver: 'ukjent',
    navn: null,
    fodselsaar: null,
    erDoed: null,
    organisasjonsnummer: null,
    organisasjonsform: null,
    erSlettet: null,
    godkjenningsstatus: null,
    postadresse: null,
  }
}

/**
 * Maps the role groups of `/enheter/{orgnr}/roller`, in Brønnøysund's order.
 *
 * @example
 * toRollegrupper(body)[0]?.kode // 'DAGL'
 */
export function toRollegrupper(body: BrregRoles): Rollegruppe[] {
  return (body.rollegrupper ?? []).map((group) => ({
    kode: group.type.kode,
    beskrivelse: group.type.beskrivelse ?? null,
    sistEndret: group.sistEndret ?? null,
    roller: (group.roller ?? []).map(toRolle),
  }))
}
