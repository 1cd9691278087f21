// What @allmenning/sources/frost/testing offers a test: the source's upstream played locally, with
// its recorded fixtures. Only through this entry do fakes reach users.
export * from './fake-frost.js'
export * from './demo-upstreams.js'
