import { DatasetFileError } from '@allmenning/core/source'

function normalize(name: string): string {
  return name.normalize('NFC').trim().toLowerCase().replace(/\s+/g, ' ')
}

/**
 * The positions of named columns in a header, each found by any of its names (publishers
 * change the wording between years). A missing required column means the file is not the
 * one expected, so the import stops with the columns it lacks; optional ones are -1.
 *
 * @example
 * const at = headerColumns(header, { orgnr: ['Orgnr', 'Organisasjonsnummer'], land: ['Landkode'] }, ['land'], 'Aksjonærregisteret')
 * cells[at.orgnr]
 */
export function headerColumns<K extends string>(
  header: string[],
  names: Record<K, string[]>,
  optional: NoInfer<K>[],
  what: string,
): Record<K, number> {
  const positions = new Map(header.map((name, i) => [normalize(name), i] as const))
  const found = {} as Record<K, number>
  const missing: string[] = []
  for (const key of Object.keys(names) as K[]) {
    const at = names[key].map((name) => positions.get(normalize(name))).find((i) => i !== undefined)
    found[key] = at ?? -1
    if (at === undefined && !optional.includes(key)) missing.push(`"${names[key][0]}"`)
  }
  if (missing.length > 0) {
    throw new DatasetFileError(
      `has no ${missing.join(', ')} column${missing.length > 1 ? 's' : ''}, so it is not ${what} (its header: ${header.slice(0, 12).join(';').slice(0, 200)})`,
    )
  }
  return found
}

/** A cell's text with surrounding space removed; a lone space (the registers' "no value") is empty. */
export function text(cells: string[], at: number): string {
  return at < 0 ? '' : (cells[at] ?? '').trim()
}
