// What @allmenning/sources/utdanning/testing offers a test: the source's upstreams played locally,
// with their fixtures, and the offline demo's upstreams. Only through this entry do fakes reach users.
export * from './fake-udir.js'
export * from './demo-upstreams.js'
export { startFakeKommuneinfo, kommuneinfoFixtures, kommuneinfoRoutes } from '../../shared/testing/fake-kommuneinfo.js'
export * from './demo-datasets.js'
