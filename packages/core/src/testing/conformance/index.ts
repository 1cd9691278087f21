/**
 * `@allmenning/core/conformance`: for adapter and dataset store authors' tests. The suites a
 * new way of serving the gateway (`runAdapterConformance`) or a new place to keep datasets
 * (`runDatasetStoreContract`) must pass, with the request helpers their cases use. They run
 * under any test runner given its `describe`, `it` and `expect`, and reach no real service.
 * Source authors' tools (fake upstreams, `checkSource`, the in-memory dataset store) are in
 * `@allmenning/core/testing`.
 *
 * @example
 * import { runAdapterConformance, runDatasetStoreContract } from '@allmenning/core/conformance'
 *
 * @module
 */
export {
  runAdapterConformance,
  type AdapterConformanceOptions,
  type StartAdapterServer,
  type StartedAdapterServer,
} from './run-adapter-conformance.js'
export type { AdapterConformanceCase, AdapterConformanceContext, AdapterQuirk } from './adapter-conformance-context.js'
export { conformanceNames, conformanceAreas } from './conformance-source.js'
export { sendRequest, postJson, postRpc, rpc, type ConformanceReply, type ConformanceSend } from './conformance-http.js'
export type {
  ConformanceRunner,
  ConformanceExpect,
  ConformanceMatchers,
  ConformanceAsyncMatchers,
} from './conformance-runner.js'
export {
  runDatasetStoreContract,
  datasetStoreContractDatasets,
  type DatasetStoreHarness,
  type DatasetStoreContractOptions,
  type DatasetRowsByTable,
  type DatasetLoadVersion,
} from './dataset-store-contract.js'
