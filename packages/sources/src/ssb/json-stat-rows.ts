import * as v from 'valibot'
import { categoryCodes } from './table-metadata.js'
import type { JsonStat } from './ssb-payloads.js'

/** One cell as a row: each variable's code and `<code>_label`, the `value`, its `status`, and the measure's `unit`. */
export const tableRowSchema = v.record(v.string(), v.nullable(v.union([v.string(), v.number()])))

/** A row of {@link tableRowSchema}. */
export type TableRow = v.InferOutput<typeof tableRowSchema>

function cellAt<T>(
  cells: T[] | Record<string, T> | string | null | undefined,
  position: number,
): T | string | undefined {
  if (cells === null || cells === undefined) return undefined
  // A single status string applies to every cell (JSON-stat 2.0 §status).
  if (typeof cells === 'string') return cells
  return Array.isArray(cells) ? cells[position] : cells[String(position)]
}

/**
 * Turns a JSON-stat2 dataset into rows a client can read: one per cell, in the dataset's order
 * (row-major over `id`, the last dimension fastest), each with every dimension's code and
 * label, the value (null when SSB has none), the status SSB gives a missing or provisional
 * cell, and the unit of the cell's measure.
 *
 * @example
 * jsonStatRows(body)[0] // { Region: '0301', Region_label: 'Oslo', ContentsCode: 'Folkemengde', …, value: 709037, status: null, unit: 'personer' }
 */
export function jsonStatRows(dataset: JsonStat): TableRow[] {
  const dimensions = dataset.id.map((code, i) => {
    const dimension = dataset.dimension[code]
    const codes = dimension ? categoryCodes(dimension) : []
    // `size` is authoritative for the layout; a dimension whose codes disagree is read as far as it goes.
    return {
      code,
      size: dataset.size[i] ?? codes.length,
      codes,
      labels: dimension?.category.label ?? {},
      units: dimension?.category.unit ?? {},
    }
  })
  const total = dimensions.reduce((product, dimension) => product * dimension.size, 1)
  const metric = dataset.role?.metric?.[0]
  const rows: TableRow[] = []
  const at = dimensions.map(() => 0)
  for (let position = 0; position < total; position++) {
    const row: TableRow = {}
    let unit: string | null = null
    dimensions.forEach((dimension, i) => {
      const code = dimension.codes[at[i]!] ?? String(at[i])
      row[dimension.code] = code
      row[`${dimension.code}_label`] = dimension.labels[code] ?? code
      if (dimension.code === metric) unit = dimension.units[code]?.base ?? null
    })
    const value = cellAt(dataset.value, position)
    row['value'] = typeof value === 'number' ? value : null
    const status = cellAt(dataset.status, position)
    row['status'] = typeof status === 'string' ? status : null
    row['unit'] = unit
    rows.push(row)
    // Advance the odometer: the last dimension fastest.
    for (let i = at.length - 1; i >= 0; i--) {
      at[i]!++
      if (at[i]! < dimensions[i]!.size) break
      at[i] = 0
    }
  }
  return rows
}
