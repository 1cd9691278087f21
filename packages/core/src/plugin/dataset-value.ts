/** A value a dataset table holds. */
export type DatasetValue = string | number | null
