/** What a heritage search asks Riksantikvaren for, before it is written as CQL2. */
export interface HeritageFilter {
  /** The municipality's name and number: Askeladden's `kommune` has been seen as either. */
  municipality?: { name: string; number: string }
  art?: string
  kind?: string
  query?: string
}

/**
 * A CQL2 text literal: single quotes doubled, as CQL2 escapes them.
 *
 * @example
 * cqlString("Kongens' gate") // "'Kongens'' gate'"
 */
export const cqlString = (value: string) => `'${value.replaceAll("'", "''")}'`

/** A LIKE pattern for text anywhere in a field; `%` and `_` in the text are matched as themselves. */
const containing = (value: string) => cqlString(`%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)

/**
 * The CQL2 text `filter` for a heritage search, or undefined when nothing is filtered on. The
 * municipality matches its name or its number; the text matches the name or the description,
 * whatever the case (the form Riksantikvaren's documentation gives).
 *
 * @example
 * heritageCql({ municipality: { name: 'Oslo', number: '0301' }, art: 'Museum-galleri' })
 * // "(kommune='Oslo' OR kommune='0301') AND art='Museum-galleri'"
 */
export function heritageCql(filter: HeritageFilter): string | undefined {
  const clauses: string[] = []
  if (filter.municipality) {
    const { name, number } = filter.municipality
    clauses.push(`(kommune=${cqlString(name)} OR kommune=${cqlString(number)})`)
  }
  if (filter.art) clauses.push(`art=${cqlString(filter.art)}`)
  if (filter.kind) clauses.push(`kategori=${cqlString(filter.kind)}`)
  if (filter.query) {
    const like = containing(filter.query)
    clauses.push(`(CASEI(navn) LIKE CASEI(${like}) OR CASEI(informasjon) LIKE CASEI(${like}))`)
  }
  return clauses.length > 0 ? clauses.join(' AND ') : undefined
}
