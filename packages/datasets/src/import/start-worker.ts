import { Worker, type ResourceLimits } from 'node:worker_threads'

/** Extra old-generation room the TypeScript loader needs beside a worker's own work. */
const loaderHeapMb = 128

/**
 * Starts a worker thread on the module `name` beside the calling module (`importer`, its
 * `import.meta.url`): the built `.js` file, or from the TypeScript sources (tests,
 * development; or when `loader` is asked for) the `.ts` file through tsx. A worker's
 * execArgv cannot preload a loader on Node 20, so the loader is registered first, by hand,
 * and given room of its own beside the heap limit.
 *
 * @example
 * const worker = startWorker(import.meta.url, 'writer-worker', { workerData, resourceLimits: { maxOldGenerationSizeMb: 64 } })
 */
export function startWorker(
  importer: string,
  name: string,
  options: { workerData: unknown; resourceLimits: ResourceLimits; loader?: boolean },
): Worker {
  const fromSources = importer.endsWith('.ts')
  const url = new URL(`./${name}${fromSources ? '.ts' : '.js'}`, importer)
  if (!fromSources && !options.loader)
    return new Worker(url, { workerData: options.workerData, resourceLimits: options.resourceLimits })
  const heap = (options.resourceLimits.maxOldGenerationSizeMb ?? 64) + loaderHeapMb
  return new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}) })`,
    {
      eval: true,
      workerData: options.workerData,
      resourceLimits: { ...options.resourceLimits, maxOldGenerationSizeMb: heap },
    },
  )
}
