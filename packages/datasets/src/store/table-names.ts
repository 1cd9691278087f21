import type { DatasetDefinition } from '@allmenning/core/source'

/**
 * The SQLite table that holds one table of one generation of a dataset. Names are built only
 * from ids `defineDataset` has checked (`[a-z][a-z0-9_]*`), so they never need escaping, and
 * the double underscores keep `a` + `b_c` apart from `a_b` + `c`.
 *
 * @example
 * generationTable('aksjonaerregisteret', 'aksjeposter', 1732300000000) // 'ds_aksjonaerregisteret__aksjeposter__g1732300000000'
 */
export function generationTable(datasetId: string, table: string, generation: number): string {
  return `ds_${datasetId}__${table}__g${generation}`
}

/** The prefix of every table of one dataset, for finding generations left behind. */
export function datasetTablePrefix(datasetId: string): string {
  return `ds_${datasetId}__`
}

/** The generation a table name belongs to, or `undefined` for a table that is not one of ours. */
export function tableGeneration(name: string): number | undefined {
  const match = /__g(\d+)$/.exec(name)
  return match ? Number(match[1]) : undefined
}

/**
 * A fingerprint of a dataset's tables (names, columns, types, keys). A generation loaded under
 * another fingerprint was made by a different version of the definition, so its tables may
 * lack columns the operations now read; it is treated as not loaded.
 *
 * @example
 * tablesFingerprint(dataset) // 'a3f1c09e2b7d'
 */
export function tablesFingerprint(dataset: DatasetDefinition): string {
  // A full-text index is named only when there is one, so adding the option changes no existing fingerprint.
  const shape = dataset.tables.map((table) => [
    table.name,
    Object.entries(table.columns),
    table.key ?? [],
    table.sum ?? [],
    table.keep ?? 'first',
    ...(table.fullText ? [table.fullText] : []),
  ])
  // node:crypto is taken when a fingerprint is first asked for, not loaded with the store.
  return process
    .getBuiltinModule('node:crypto')
    .createHash('sha256')
    .update(JSON.stringify(shape))
    .digest('hex')
    .slice(0, 12)
}

/** A quoted SQL identifier (column names are checked by `defineDataset`; quoting keeps keywords such as `order` legal). */
export function quote(identifier: string): string {
  return `"${identifier}"`
}

/**
 * The FTS5 table that indexes one generation table with `fullText`. Its own prefix keeps it
 * (and the shadow tables SQLite makes for it) apart from the generation tables.
 *
 * @example
 * fullTextTable('lovdata_lover', 'sections', 1732300000000) // 'fts_lovdata_lover__sections__g1732300000000'
 */
export function fullTextTable(datasetId: string, table: string, generation: number): string {
  return `fts_${datasetId}__${table}__g${generation}`
}
