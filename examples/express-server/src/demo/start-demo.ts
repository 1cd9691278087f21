import type { GatewayOptions } from '@allmenning/core'
import { loadDemoDatasets } from '@allmenning/datasets/testing'
import { startBuiltInDemo } from '@allmenning/sources/testing'

/** The example's offline demo, started: what the gateway is made with, and how it stops. */
export interface ExampleDemo {
  /** The environment to read, less what would mix demo answers with real ones (`REDIS_URL`, the datasets' places). */
  env: Record<string, string | undefined>
  /** The demo's sources and datasets, given to `createApp` as overrides of the gateway's options. */
  options: Pick<GatewayOptions, 'sources' | 'datasets'>
  close(): Promise<void>
}

// What the demo leaves out of the environment: a shared cache would hold demo answers where real
// ones are read, and a real dataset store would answer beside demo upstreams.
const notInDemo = ['REDIS_URL', 'ALLMENNING_DATA_DIR', 'ALLMENNING_DATASETS_SNAPSHOT'] as const

/**
 * Starts the offline demo: every built-in upstream played on 127.0.0.1 from the sources' own
 * fixtures, every built-in dataset loaded from them into a store in a temporary folder. Its
 * answers say they are demo data and are kept in this process's memory only.
 *
 * @example
 * import { createApp } from '../app.js'
 * const demo = await startExampleDemo(process.env, console.log)
 * const app = createApp(demo.env, demo.options)
 */
export async function startExampleDemo(
  env: Record<string, string | undefined>,
  log: (line: string) => void,
): Promise<ExampleDemo> {
  const ignored = notInDemo.filter((name) => env[name])
  if (ignored.length > 0) log(`Demo: ${ignored.join(', ')} ignored; demo answers stay in this process's memory`)
  const upstreams = await startBuiltInDemo()
  let datasets: Awaited<ReturnType<typeof loadDemoDatasets>>
  try {
    datasets = await loadDemoDatasets()
  } catch (error) {
    await upstreams.close()
    throw error
  }
  log(
    `Demo: ${upstreams.sources.length} sources played on 127.0.0.1, ${datasets.loaded.length} datasets loaded in ${Math.round(datasets.elapsedMs)} ms; no network, no keys`,
  )
  return {
    env: Object.fromEntries(Object.entries(env).filter(([name]) => !(notInDemo as readonly string[]).includes(name))),
    options: { sources: upstreams.sources, datasets: datasets.store },
    close: async () => {
      await Promise.all([upstreams.close(), datasets.close()])
    },
  }
}
