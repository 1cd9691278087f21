/**
 * `@allmenning/core/testing`: for source authors' tests. Fake upstreams, a test gateway, and
 * one check of a whole source; it runs under any test runner (it throws plain errors) and
 * reaches no real service.
 *
 * @example
 * import { checkSource, startFakeUpstream, fakeReply } from '@allmenning/core/testing'
 *
 * @module
 */
export {
  startFakeUpstream,
  type FakeUpstream,
  type FakeUpstreamOptions,
  type FakeRoute,
  type FakeRequest,
} from './fake-upstream.js'
export { fakeReply, type FakeReply, type BodyOptions } from './fake-reply.js'
export { encodeText, type Charset } from './encode-text.js'
export { fixtureFiles, type FixtureFiles } from './fixture-files.js'
export {
  createTestGateway,
  type TestGateway,
  type TestGatewayOptions,
  type TestResponse,
  type TestQuery,
  type TestUpstream,
} from './test-gateway.js'
export { testOperationContext, testUpstreamClient, type TestUpstreamTarget } from './operation-context.js'
export { checkSource, type CheckSourceOptions, type ExampleCall } from './check-source.js'
export { SourceCheckError, type SourceCheckReport } from './check-recorder.js'
export { upstreamFailurePlays, type UpstreamFailureMode, type UpstreamFailurePlay } from './upstream-failures.js'
export { validateOpenApi, type OpenApiValidation } from './openapi-validation.js'
export {
  runAdapterConformance,
  type AdapterConformanceOptions,
  type StartAdapterServer,
  type StartedAdapterServer,
} from './conformance/run-adapter-conformance.js'
export type { AdapterConformanceCase, AdapterConformanceContext, AdapterQuirk } from './conformance/adapter-conformance-context.js'
export { conformanceNames, conformanceAreas } from './conformance/conformance-source.js'
export { sendRequest, postJson, postRpc, rpc, type ConformanceReply, type ConformanceSend } from './conformance/conformance-http.js'
export type { ConformanceRunner, ConformanceExpect, ConformanceMatchers, ConformanceAsyncMatchers } from './conformance/conformance-runner.js'
export {
  runDatasetStoreContract,
  datasetStoreContractDatasets,
  type DatasetStoreHarness,
  type DatasetStoreContractOptions,
  type DatasetRowsByTable,
  type DatasetLoadVersion,
} from './conformance/dataset-store-contract.js'
export { demoUpstreams, type DemoUpstreams } from './demo-upstreams.js'
export {
  createMemoryDatasetStore,
  type MemoryDatasetStore,
  type MemoryDatasetStoreOptions,
  type MemoryLoadVersion,
  type MemoryLoadResult,
} from './memory-store/memory-dataset-store.js'
