import { udirNbr, udirNsr, type UdirRegister } from '../udir-upstreams.js'

/** Units a list page asks for: the most Udir's v4 gives. */
export const UDIR_PAGE_SIZE = 1000

/** The file of each register, as `sync` keeps it: the first page of the register's list. */
export const UDIR_ENHETER_FILES = { nsr: 'nsr-enheter.json', nbr: 'nbr-enheter.json' } as const

/** The upstream of a register. */
export const udirUpstream = (register: UdirRegister) => (register === 'nsr' ? udirNsr : udirNbr)

/**
 * The register's API as this process is set to call it: `ALLMENNING_UPSTREAM_UDIR_NSR` and
 * `ALLMENNING_UPSTREAM_UDIR_NBR` override it, as they do the gateway's.
 *
 * @example
 * udirBaseUrl('nsr') // 'https://data-nsr.udir.no/v4'
 */
export function udirBaseUrl(
  register: UdirRegister,
  env: Record<string, string | undefined> = globalThis.process?.env ?? {},
): string {
  const set = register === 'nsr' ? env.ALLMENNING_UPSTREAM_UDIR_NSR : env.ALLMENNING_UPSTREAM_UDIR_NBR
  return (set && set.trim() !== '' ? set.trim() : udirUpstream(register).baseUrl).replace(/\/+$/, '')
}

/**
 * Where the crawl keeps the records it has read: beside the downloads of the data directory
 * (`ALLMENNING_DATA_DIR`, `./data` by default, as the command line's own default).
 *
 * @example
 * udirJournalPath('nsr') // 'data/downloads/udir_enheter/nsr-records.jsonl'
 */
export function udirJournalPath(
  register: UdirRegister,
  env: Record<string, string | undefined> = globalThis.process?.env ?? {},
): string {
  // No node:path here: the definition is loaded with the source, in every runtime the gateway runs in.
  const dir = (env.ALLMENNING_DATA_DIR || 'data').replace(/[\\/]+$/, '')
  return `${dir}/downloads/udir_enheter/${register}-records.jsonl`
}
