import type { DatasetReader } from './dataset-reader.js'
import type { UpstreamDefinition } from './define-upstream.js'

/** How far one run of a derivation has come; the command line shows it as `n of total`, a rate and the budget. */
export interface DatasetDeriveProgress {
  /** Items handled in this run so far. */
  done: number
  /** Items this run handles: those due, cut to the run's budget. */
  total: number
  /** Items due in all (new since the last run, or due again), before the budget cut them to `total`. */
  due: number
  /** What became of the items so far, by outcome: `{ placed: 1180, 'not found': 15, failed: 5 }`. */
  counts?: Record<string, number>
}

/** What a run of a derivation is given by the command line (`allmenning datasets sync`). */
export interface DatasetDeriveContext {
  /** A reader of each loaded dataset the derivation names in `from`, by id. */
  reader(datasetId: string): DatasetReader
  /**
   * The data directory: the derivation keeps its files here (not in the store), so they
   * outlive every import of the datasets it is made from and a run goes on where the last stopped.
   */
  directory: string
  /** Most upstream requests this run may make: the derivation's `budget`, or `sync --budget <n>`. */
  budget: number
  /** An upstream's base URL: `ALLMENNING_UPSTREAM_<ID>` when set (a mirror, a test's fake), its own otherwise. */
  baseUrl(upstream: UpstreamDefinition): string
  /** The User-Agent to send upstream. */
  userAgent: string
  /** Aborted by Ctrl-C or SIGTERM: stop asking, keep what was written, and return. */
  signal?: AbortSignal
  onProgress(progress: DatasetDeriveProgress): void
}

/** What one run of a derivation did. */
export interface DatasetDeriveResult {
  /** The files to load, by the names the dataset declares, each with its path on disk. */
  files: Array<{ name: string; path: string }>
  /** One line for people: what the run asked and found. */
  summary: string
  /** Items left for a later run: beyond the budget, or failed. */
  remaining: number
  /**
   * Set when an upstream failed during the run, naming it and saying what it answered. What
   * was made before is kept and loaded all the same; the command line reports this as an
   * error (exit code 1), and the next run asks the failed items again.
   */
  failure?: string
}

/**
 * The origin of a dataset made here from other loaded datasets, with upstream calls a run at a
 * time: the smilefjes file's addresses placed by Kartverket's address search, say. `sync`
 * runs `derive` after the datasets named in `from` (every time: a run is bounded by `budget`,
 * so a first derivation may take several), then loads the files it returns.
 */
export interface DatasetDerivedOrigin {
  kind: 'derived'
  /** The documentation of the upstream the derivation asks. */
  page: string
  /** The ids of the datasets it is made from: they must be loaded, and `sync` syncs them first. */
  from: string[]
  /** What a run does to each item, for progress lines: `placing addresses`. */
  action: string
  /** Most upstream requests a run makes unless `sync --budget <n>` says otherwise. */
  budget: number
  /** Most requests a second it starts, to tell how long a run of the budget takes. */
  requestsPerSecond: number
  /** The upstreams a run asks: what its messages name, and what `ALLMENNING_UPSTREAM_<ID>` overrides. */
  upstreams: UpstreamDefinition[]
  /**
   * One bounded, resumable run: asks for the items due (at most `budget` requests), writes
   * each answer to its files in `directory` as it comes (so a stopped run keeps it), and
   * returns the files to load.
   */
  derive(context: DatasetDeriveContext): Promise<DatasetDeriveResult>
}
