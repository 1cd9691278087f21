// What @allmenning/sources/arkivverket/testing offers a test: the source's upstream played locally,
// with its fixture, and the offline demo's upstream. Only through this entry do fakes reach users.
export * from './fake-digitalarkivet.js'
export * from './demo-upstreams.js'
