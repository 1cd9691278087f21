import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { checkUpstreamShape, createTimedMemo, type TimedMemo, type UpstreamClient } from '@allmenning/core/source'
import { jsonStatSchema, type JsonStat } from './ssb-payloads.js'

const valueSchema = v.object({
  code: v.string(),
  label: v.string(),
  unit: v.pipe(
    v.nullable(v.string()),
    v.description('For a measure (ContentsCode): what its numbers count, e.g. personer, kr, prosent'),
  ),
})

/** A table's variables and their values, as `get_table_metadata` answers them. */
export const tableMetadataSchema = v.object({
  table_id: v.string(),
  label: v.string(),
  source: v.nullable(v.string()),
  updated: v.nullable(v.string()),
  notes: v.array(v.string()),
  variables: v.array(
    v.object({
      code: v.pipe(
        v.string(),
        v.description('The code to use in get_table_data selection, e.g. Region, ContentsCode, Tid'),
      ),
      label: v.string(),
      role: v.pipe(
        v.nullable(v.picklist(['time', 'metric', 'geo'])),
        v.description('time, metric (the measures), geo, or null'),
      ),
      elimination: v.pipe(
        v.boolean(),
        v.description('true: may be left out of a selection (SSB then sums over it); false: must be selected'),
      ),
      value_count: v.number(),
      values: v.array(valueSchema),
      codelists: v.pipe(
        v.array(v.object({ id: v.string(), label: v.nullable(v.string()) })),
        v.description('Groupings SSB offers for the variable (e.g. counties of municipalities); listed for reference'),
      ),
    }),
  ),
})

/** A table's metadata. */
export type TableMetadata = v.InferOutput<typeof tableMetadataSchema>

/** A variable of a table. */
export type TableVariable = TableMetadata['variables'][number]

type Dimension = JsonStat['dimension'][string]

/** A dimension's codes in their order: by `index` (object or list), else the keys of `label`. */
export function categoryCodes(dimension: Dimension): string[] {
  const index = dimension.category.index
  if (Array.isArray(index)) return index
  if (index)
    return Object.entries(index)
      .sort((a, b) => a[1] - b[1])
      .map(([code]) => code)
  return Object.keys(dimension.category.label ?? {})
}

function roleOf(dataset: JsonStat, code: string): TableVariable['role'] {
  const role = dataset.role
  if (role?.time?.includes(code)) return 'time'
  if (role?.metric?.includes(code)) return 'metric'
  if (role?.geo?.includes(code)) return 'geo'
  return null
}

/**
 * Maps a JSON-stat2 metadata answer onto {@link tableMetadataSchema}: one variable per
 * dimension, in the dataset's order, with every value's code, label and (for measures) unit.
 *
 * @example
 * toTableMetadata(body, '07459').variables.map((variable) => variable.code) // ['Region', 'Kjonn', 'Alder', 'ContentsCode', 'Tid']
 */
export function toTableMetadata(dataset: JsonStat, tableId: string): TableMetadata {
  return {
    table_id: tableId,
    label: dataset.label ?? tableId,
    source: dataset.source ?? null,
    updated: dataset.updated ?? null,
    notes: dataset.note ?? [],
    variables: dataset.id.map((code) => {
      const dimension = dataset.dimension[code]
      const values = dimension
        ? categoryCodes(dimension).map((value) => ({
            code: value,
            label: dimension.category.label?.[value] ?? value,
            unit: dimension.category.unit?.[value]?.base ?? null,
          }))
        : []
      return {
        code,
        label: dimension?.label ?? code,
        role: roleOf(dataset, code),
        // SSB marks every variable; one it leaves unmarked is treated as required, the safe side.
        elimination: dimension?.extension?.elimination ?? false,
        value_count: values.length,
        values,
        codelists: (dimension?.extension?.codeLists ?? []).map((list) => ({ id: list.id, label: list.label ?? null })),
      }
    }),
  }
}

/** Where a table's metadata is asked for. */
export function metadataRequest(tableId: string, lang: string) {
  return { path: `/tables/${tableId}/metadata`, query: { lang, outputFormat: 'json-stat2' } }
}

/**
 * A memo of table metadata, kept six hours: SSB changes a table's variables when it adds a
 * period, at most daily, and `get_table_data` needs them on every call to count cells.
 */
export function createMetadataMemo(): TimedMemo<TableMetadata> {
  return createTimedMemo<TableMetadata>({ ttlMs: 6 * 3_600_000, maxEntries: 500 })
}

/**
 * The metadata of one table, through the memo. An unknown table is a 404 naming it.
 *
 * @example
 * const memo = createMetadataMemo()
 * const table = await loadTableMetadata(memo, ctx.upstream(ssbApi), '07459', 'no')
 */
export function loadTableMetadata(
  memo: TimedMemo<TableMetadata>,
  client: UpstreamClient,
  tableId: string,
  lang: string,
): Promise<TableMetadata> {
  return memo.get(`${lang}:${tableId}`, async () => {
    const { path, query } = metadataRequest(tableId, lang)
    const res = await client.getJson(path, { query, acceptStatus: [404] })
    if (res.status === 404)
      throw new GatewayError(404, 'entity_not_found', `No table ${tableId} in SSB's Statistikkbanken`)
    return toTableMetadata(checkUpstreamShape(client, jsonStatSchema, res.body, 'the table metadata'), tableId)
  })
}
