// What @allmenning/sources/nve/testing offers a test: the source's upstreams played locally, with
// fixtures written in Varsom's and HydAPI's formats. Only through this entry do fakes reach users.
export * from './fake-varsom.js'
export * from './fake-hydapi.js'
export * from './fake-kartverket-points.js'
export * from './demo-upstreams.js'
