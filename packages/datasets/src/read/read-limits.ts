/**
 * How far an import reads a file before it gives up on it. Every reader streams, so these do
 * not size memory; they stop a file that is not what it claims to be (a line of a gigabyte, a
 * compression bomb, an archive of countless members) early, with an error naming the limit
 * and the file, instead of letting it run the import out of memory or disk.
 *
 * The defaults are far above the real files: Aksjonærregisteret's lines are ~120 bytes and
 * CORDIS's longest field a few thousand characters; the largest compressed file, Brønnøysund's
 * roles, is ~130 MB of gzip, and CSV, JSON and XML of this kind commonly unpack 5–20 times.
 */
export interface ReadLimits {
  /**
   * Longest line (a record of a delimited file, with a quoted field's line breaks), in
   * characters, or JSON element, in bytes. Default 4 Mi (4,194,304).
   */
  maxRecordLength: number
  /** Most bytes a compressed file or zip member may unpack to. Default 16 GiB. */
  maxUnpackedBytes: number
  /**
   * Most bytes unpacked per byte read, once a file has unpacked 64 MiB (a small file of
   * repeated bytes may well unpack more). Default 100.
   */
  maxRatio: number
  /** Most members (files and folders) in a zip archive or workbook. Default 100,000. */
  maxMembers: number
  /**
   * Most bytes an XLSX workbook may unpack to. A workbook is read whole (on a worker heap of
   * 1 GiB), unlike every other format. Default 256 MiB.
   */
  maxWorkbookBytes: number
}

/** The limits an import applies unless told otherwise; see {@link ReadLimits}. */
export const defaultReadLimits: Readonly<ReadLimits> = Object.freeze({
  maxRecordLength: 4 * 1024 * 1024,
  maxUnpackedBytes: 16 * 1024 ** 3,
  maxRatio: 100,
  maxMembers: 100_000,
  maxWorkbookBytes: 256 * 1024 * 1024,
})

/** Unpacked bytes below which the ratio is not checked. */
export const ratioCheckedFrom = 64 * 1024 * 1024

/**
 * A file went past one of the {@link ReadLimits}. The message names the file and the limit,
 * and says how to raise it.
 *
 * @example
 * throw new ReadLimitError(`line 2 of project.csv is longer than ${describeLength(limit)}`, 'maxRecordLength')
 */
export class ReadLimitError extends Error {
  constructor(
    message: string,
    readonly limit: keyof ReadLimits,
  ) {
    super(message)
    this.name = 'ReadLimitError'
  }
}

/** Which command-line option raises each limit. */
export const limitOptions: Record<keyof ReadLimits, string> = {
  maxRecordLength: '--max-record-length',
  maxUnpackedBytes: '--max-unpacked-bytes',
  maxRatio: '--max-ratio',
  maxMembers: '--max-members',
  maxWorkbookBytes: '--max-workbook-bytes',
}

/**
 * A byte count as people read it: `4 MiB`, `99.4 KiB`, `1,000 bytes`.
 *
 * @example
 * describeSize(4 * 1024 * 1024) // '4 MiB'
 */
export function describeSize(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size) return `${(bytes / size).toLocaleString('en-US', { maximumFractionDigits: 1 })} ${unit}`
  }
  return `${bytes.toLocaleString('en-US')} bytes`
}

/**
 * A count of characters as people read it, in the units of {@link describeSize}: `4 Mi
 * characters`, `1,000 characters`.
 *
 * @example
 * describeLength(4 * 1024 * 1024) // '4 Mi characters'
 */
export function describeLength(chars: number): string {
  return describeSize(chars).replace(/(i)?B$|bytes$/, (_, binary) => (binary ? 'i characters' : 'characters'))
}

/**
 * The limits to apply: the defaults, with what is given instead, each checked.
 *
 * @example
 * readLimits({ maxRecordLength: 64 * 1024 * 1024 })
 */
export function readLimits(given: Partial<ReadLimits> = {}): ReadLimits {
  const limits = { ...defaultReadLimits }
  for (const [name, value] of Object.entries(given) as [keyof ReadLimits, number | undefined][]) {
    if (value === undefined) continue
    if (!(name in defaultReadLimits))
      throw new TypeError(`There is no read limit "${name}"; there are ${Object.keys(defaultReadLimits).join(', ')}`)
    if (!Number.isFinite(value) || value <= 0)
      throw new TypeError(`The read limit ${name} must be a positive number, not ${value}`)
    limits[name] = value
  }
  return limits
}
