import type { DatasetDefinition, DatasetRow } from '@allmenning/core/source'

/**
 * The check every row handed to a generation's writer passes: its table is one the dataset
 * declares, and the first row of each table has no column the table does not declare (a
 * mapping's rows all have the same columns, so one look per table is enough). Returns the
 * table's place in `dataset.tables`; throws a TypeError, a mistake in the dataset's code.
 *
 * @example
 * const check = createRowCheck(dataset)
 * const table = check('aksjeposter', row) // 0
 */
export function createRowCheck(
  dataset: Pick<DatasetDefinition, 'id' | 'tables'>,
): (tableName: string, row: DatasetRow) => number {
  const places = new Map(dataset.tables.map((table, i) => [table.name, i]))
  const checked = dataset.tables.map(() => false)
  return (tableName, row) => {
    const place = places.get(tableName)
    if (place === undefined) throw new TypeError(`Dataset ${dataset.id} has no table "${tableName}"`)
    if (!checked[place]) {
      const unknown = Object.keys(row).filter((column) => !(column in dataset.tables[place]!.columns))
      if (unknown.length > 0)
        throw new TypeError(
          `Dataset ${dataset.id}: a row for ${tableName} has columns it does not declare: ${unknown.join(', ')}`,
        )
      checked[place] = true
    }
    return place
  }
}
