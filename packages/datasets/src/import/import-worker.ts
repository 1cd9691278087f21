import { parentPort, workerData } from 'node:worker_threads'
import { importDataset, type ImportOptions } from './import-dataset.js'
import { loadDatasetDefinitions, type DatasetDefinitionsRef } from './dataset-definitions-module.js'
import type { ImportInput } from './import-types.js'

/** What the serving thread sends the import worker. */
export interface ImportWorkerData {
  definitions: DatasetDefinitionsRef
  datasetId: string
  path: string
  inputs: ImportInput[]
  publishedAt: string | null
  writerThread?: boolean
  limits?: ImportOptions['limits']
}

// The worker end of `importInWorker`: it loads the dataset's definition by module, runs the
// import on this thread, and reports progress and the outcome as messages.
const data = workerData as ImportWorkerData
const port = parentPort!
const controller = new AbortController()
port.on('message', (message: { type: string }) => {
  if (message.type === 'abort') controller.abort()
})

try {
  const datasets = await loadDatasetDefinitions(data.definitions)
  const dataset = datasets.find((d) => d.id === data.datasetId)
  if (!dataset) throw new Error(`${data.definitions.module} defines no dataset "${data.datasetId}"`)
  const result = await importDataset({
    path: data.path,
    dataset,
    inputs: data.inputs,
    publishedAt: data.publishedAt,
    signal: controller.signal,
    writerThread: data.writerThread,
    limits: data.limits,
    onProgress: (progress) => port.postMessage({ type: 'progress', progress }),
  })
  port.postMessage({ type: 'done', result })
} catch (error) {
  port.postMessage({ type: 'error', name: (error as Error).name, message: (error as Error).message })
} finally {
  port.close()
}
