// What @allmenning/sources/statnett/testing offers a test: the source's upstream played locally, with
// its recorded fixtures. Only through this entry do fakes reach users.
export * from './fake-statnett.js'
export * from './demo-upstreams.js'
export * from './demo-kartverket.js'
