// What @allmenning/sources/kulturarv/testing offers a test: the source's upstreams played locally,
// with fixtures of their real shapes, and the offline demo's upstreams. Only through this entry do fakes reach users.
export * from './fake-riksantikvaren.js'
export * from './fake-dimu.js'
export * from './demo-upstreams.js'
export { startFakeKommuneinfo, kommuneinfoFixtures, kommuneinfoRoutes } from '../../shared/testing/fake-kommuneinfo.js'
