// What @allmenning/sources/firmafakta/testing offers a test: the source's upstreams played locally, with
// its recorded fixtures, and all of them at once for the offline demo. Only through this entry do fakes reach users.
export * from './fake-brreg.js'
export * from './fake-regnskapsregisteret.js'
export * from './area-fixtures.js'
export * from './demo-upstreams.js'
export * from './demo-datasets.js'
export * from './brreg-roller-fixtures.js'
export * from './forskningsradet-fixtures.js'
