import * as v from 'valibot'

// What PxWebApi v2 sends (upstreams-3.md §5). Loose objects: SSB adds keys between versions.

/** One hit of `GET /tables?query=…`. */
export const tableHitSchema = v.looseObject({
  id: v.string(),
  label: v.string(),
  description: v.nullish(v.string()),
  updated: v.nullish(v.string()),
  firstPeriod: v.nullish(v.string()),
  lastPeriod: v.nullish(v.string()),
  variableNames: v.nullish(v.array(v.string())),
  discontinued: v.nullish(v.boolean()),
  subjectCode: v.nullish(v.string()),
  timeUnit: v.nullish(v.string()),
})

/** A table hit as SSB sends it. */
export type TableHit = v.InferOutput<typeof tableHitSchema>

/** The body of `GET /tables`: one page of hits; `pageNumber` counts from 1. */
export const tableSearchSchema = v.looseObject({
  tables: v.array(tableHitSchema),
  page: v.looseObject({
    pageNumber: v.number(),
    pageSize: v.number(),
    totalElements: v.number(),
    totalPages: v.number(),
  }),
})

/** A JSON-stat `index`: code → position, or the codes in order. */
const categoryIndex = v.union([v.record(v.string(), v.number()), v.array(v.string())])

const dimensionSchema = v.looseObject({
  label: v.nullish(v.string()),
  category: v.looseObject({
    // A dimension of one category may leave out `index` (JSON-stat 2.0 §index): `label` then names it.
    index: v.nullish(categoryIndex),
    label: v.nullish(v.record(v.string(), v.string())),
    unit: v.nullish(
      v.record(v.string(), v.looseObject({ base: v.nullish(v.string()), decimals: v.nullish(v.number()) })),
    ),
  }),
  extension: v.nullish(
    v.looseObject({
      elimination: v.nullish(v.boolean()),
      codeLists: v.nullish(
        v.array(v.looseObject({ id: v.string(), label: v.nullish(v.string()), type: v.nullish(v.string()) })),
      ),
    }),
  ),
})

/**
 * A JSON-stat2 dataset: the metadata answer (no `value`) and the data answer alike. `value` is
 * row-major over `id` (last dimension fastest), an array or a sparse object by position;
 * missing cells are null, and `status` (array or object by position) says why.
 */
export const jsonStatSchema = v.looseObject({
  class: v.literal('dataset'),
  label: v.nullish(v.string()),
  source: v.nullish(v.string()),
  updated: v.nullish(v.string()),
  id: v.array(v.string()),
  size: v.array(v.number()),
  role: v.nullish(
    v.looseObject({
      time: v.nullish(v.array(v.string())),
      metric: v.nullish(v.array(v.string())),
      geo: v.nullish(v.array(v.string())),
    }),
  ),
  dimension: v.record(v.string(), dimensionSchema),
  note: v.nullish(v.array(v.string())),
  value: v.nullish(v.union([v.array(v.nullable(v.number())), v.record(v.string(), v.nullable(v.number()))])),
  status: v.nullish(v.union([v.array(v.nullable(v.string())), v.record(v.string(), v.string()), v.string()])),
})

/** A JSON-stat2 dataset as SSB sends it. */
export type JsonStat = v.InferOutput<typeof jsonStatSchema>
