export { startFakeUpstream, type FakeUpstream, type FakeReply, type FakeRoute } from './fake-upstream.js'
export { testOperationContext } from './operation-context.js'
