import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { DatasetDeriveContext, DatasetDeriveResult } from '@allmenning/core/source'
import { kartverketAdresser } from '../../geonorge/kartverket-upstreams.js'
import { ADDRESS_POINTS_FILE } from '../datasets/address-points-file.js'
import { smilefjes } from '../datasets/smilefjes.js'
import { geocodeEstablishmentAddresses } from './geocode-addresses.js'

const count = (n: number) => n.toLocaleString('en-US')

/**
 * One run of `mattilsynet_adressepunkter`'s derivation, as `npx allmenning datasets sync` runs
 * it after syncing the smilefjes file: {@link geocodeEstablishmentAddresses} over the loaded
 * establishments, within the run's budget, appending to {@link ADDRESS_POINTS_FILE} in the data
 * directory (Kartverket's base URL from `ALLMENNING_UPSTREAM_KARTVERKET_ADRESSER` when set).
 *
 * @example
 * // The derivation of the dataset, which the command line runs: npx allmenning datasets sync mattilsynet_adressepunkter
 * adressepunkter.origin.kind === 'derived' && adressepunkter.origin.derive === deriveAddressPoints // true
 * // Its summary: '31,204 distinct addresses, 29,011 known from earlier runs; asked Kartverket address API for 2,000: …'
 */
export async function deriveAddressPoints(context: DatasetDeriveContext): Promise<DatasetDeriveResult> {
  mkdirSync(context.directory, { recursive: true })
  const file = join(context.directory, ADDRESS_POINTS_FILE)
  const run = await geocodeEstablishmentAddresses({
    reader: context.reader(smilefjes.id),
    file,
    baseUrl: context.baseUrl(kartverketAdresser),
    maxRequests: context.budget,
    userAgent: `Allmenning (mattilsynet geocoding step; ${context.userAgent})`,
    ...(context.signal ? { signal: context.signal } : {}),
    onProgress: (p) =>
      context.onProgress({
        done: p.done,
        total: p.total,
        due: p.due,
        counts: { placed: p.placed, 'not found': p.notFound, failed: p.failed },
      }),
  })
  const failed = run.failed > 0 ? `, ${count(run.failed)} failed` : ''
  const summary =
    `${count(run.addresses)} distinct addresses, ${count(run.known)} known from earlier runs; asked ${kartverketAdresser.name} ` +
    `for ${count(run.done)}: ${count(run.placed)} placed, ${count(run.notFound)} not found${failed}; ${count(run.remaining)} left for a later run`
  const failure =
    run.failed > 0
      ? `${kartverketAdresser.name} failed ${count(run.failed)} of ${count(run.done)} requests` +
        `${run.stoppedByFailures ? ', too many in a row, so the run stopped' : ''} (last: ${run.lastError}); ` +
        `the ${count(run.placed + run.notFound)} answers it gave are kept and loaded, and the next sync asks for the rest`
      : undefined
  return {
    files: [{ name: ADDRESS_POINTS_FILE, path: file }],
    summary,
    remaining: run.remaining,
    ...(failure ? { failure } : {}),
  }
}
