// What @allmenning/sources/nyheter/testing offers a test: the source's upstreams played locally, with
// their recorded fixtures, and the offline demo's upstreams. Only through this entry do fakes reach users.
export * from './fake-politiloggen.js'
export * from './fake-nrk.js'
export * from './fake-stedsnavn.js'
export * from './demo-upstreams.js'
export { startFakeKommuneinfo, kommuneinfoFixtures, kommuneinfoRoutes } from '../../shared/testing/fake-kommuneinfo.js'
