/**
 * The field of `/api/v1/steder/{lat}/{lon}` an operation fills, and the section it is answered
 * under. The core holds no list of fields: the `section` and `fields` values a gateway
 * accepts, and what its OpenAPI document and 400s list, are the fields its sources declare.
 *
 * @example
 * const placeField: PlaceFieldDeclaration = {
 *   name: 'tide_levels',
 *   section: 'weather',
 *   description: 'Observed and forecast sea level at the nearest tide gauge.',
 * }
 */
export interface PlaceFieldDeclaration {
  /** snake_case name: the key in the bundle's `fields` and a value of `fields=`. */
  name: string
  /**
   * snake_case name of the section it is answered under: one another source uses (`weather`)
   * or a new one. Not `summary` or `all`, which every gateway has.
   */
  section: string
  /** A sentence on what the field holds, listed in OpenAPI and the operation's `/schema`. */
  description: string
  /** Also fetched by `section=summary`, the default: keep that small (the built-ins: addresses, place names, the weather now). */
  summary?: boolean
  /**
   * Where the field stands among the fields (in `section=all`, the sections and the lists of
   * OpenAPI and 400s): lower first. Fields without one come after, in the order the sources
   * and their operations are given.
   */
  order?: number
  /** Where its section stands among the sections, likewise; a section takes the lowest its fields give. */
  sectionOrder?: number
}

/** The sections every gateway has, whatever its fields: the small default and every field. */
export const summarySection = 'summary'
export const allSection = 'all'

const snakeCase = /^[a-z][a-z0-9_]*$/

/** Why a place-field declaration is unusable, or `undefined` when it is fine. */
export function placeFieldProblem(declared: unknown): string | undefined {
  // A plugin in plain JavaScript, or written for a bare field name, gets a message, not a TypeError.
  if (typeof declared !== 'object' || declared === null) {
    return `placeField must be an object { name, section, description } (got ${JSON.stringify(declared)})`
  }
  const field = declared as Partial<Record<keyof PlaceFieldDeclaration, unknown>>
  if (typeof field.name !== 'string' || !snakeCase.test(field.name))
    return `place field name ${JSON.stringify(field.name)} must be snake_case ([a-z][a-z0-9_]*)`
  if (typeof field.section !== 'string' || !snakeCase.test(field.section)) {
    return `place field ${field.name}: section ${JSON.stringify(field.section)} must be snake_case ([a-z][a-z0-9_]*)`
  }
  if (field.section === summarySection || field.section === allSection) {
    return `place field ${field.name}: section "${field.section}" is the core's own; set summary: true to be in summary, and every field is in all`
  }
  if (typeof field.description !== 'string' || field.description.trim() === '')
    return `place field ${field.name} needs a description`
  return undefined
}
