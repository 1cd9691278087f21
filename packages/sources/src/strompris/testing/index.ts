// What @allmenning/sources/strompris/testing offers a test: the source's upstream played locally, with
// its fixtures. Only through this entry do fakes reach users.
export * from './fake-hvakosterstrommen.js'
export * from './demo-upstreams.js'
