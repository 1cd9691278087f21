/** One local file handed to an import, and where it came from. */
export interface ImportInput {
  /** The declared file it is (`DatasetFile.name`). */
  file: string
  /** Its own name, when several files are read as one declared file (discovered files). */
  label?: string
  /** Where it is on disk. */
  path: string
  /** The URL it was downloaded from; `null` for a file given to `import`. */
  url: string | null
  etag?: string | null
  lastModified?: string | null
}

/** Where an import is, reported a few times a second. */
export interface ImportProgress {
  phase: 'reading' | 'indexing' | 'switching'
  /** The file (or zip member) being read. */
  file: string
  bytes: number
  totalBytes: number
  records: number
  rows: number
  malformed: number
  elapsedMs: number
}

/** A malformed record, as reported. */
export interface MalformedSample {
  file: string
  record: number
  problem: string
}

/** What a finished import loaded. */
export interface ImportResult {
  dataset: string
  generation: number
  records: number
  rows: number
  malformed: number
  samples: MalformedSample[]
  publishedAt: string | null
  loadedAt: string
  elapsedMs: number
}

/**
 * An import that stopped: the file is not what the dataset expects, is mostly malformed,
 * could not be read, or the import was interrupted. The generation that served before
 * still serves.
 *
 * @example
 * try { await importDataset(options) } catch (error) { if (error instanceof ImportError) console.error(error.message) }
 */
export class ImportError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ImportError'
  }
}
