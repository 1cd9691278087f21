// What @allmenning/sources/naturbase/testing offers a test: Miljødirektoratet's vern layer played
// locally with its fixtures, and the offline demo's upstreams. Only through this entry do fakes reach users.
export * from './fake-naturbase.js'
export * from './vern-fixtures.js'
export * from './demo-upstreams.js'
