// What @allmenning/sources/banenor/testing offers a test: the source's upstream played locally,
// with a network written in Bane NOR's SIRI ET form. Only through this entry do fakes reach users.
export * from './fake-banenor.js'
export * from './siri-et-fixture.js'
export * from './demo-upstreams.js'
