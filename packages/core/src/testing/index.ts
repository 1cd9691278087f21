/**
 * `@allmenning/core/testing`: for source authors' tests. Fake upstreams, a test gateway, one
 * check of a whole source, and a dataset store in memory for sources that read datasets; it
 * runs under any test runner (it throws plain errors) and reaches no real service. The suites
 * adapters and dataset stores must pass are in `@allmenning/core/conformance`.
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
export { demoUpstreams, type DemoUpstreams } from './demo-upstreams.js'
export {
  createMemoryDatasetStore,
  type MemoryDatasetStore,
  type MemoryDatasetStoreOptions,
  type MemoryLoadVersion,
  type MemoryLoadResult,
  type MemoryFileLoadResult,
} from './memory-store/memory-dataset-store.js'
export {
  readDatasetFiles,
  type DatasetFileInput,
  type DatasetFileRows,
  type DatasetFileSample,
} from './memory-store/dataset-file-rows.js'
