// What @allmenning/sources/badetemp/testing offers a test: the source's upstream played locally, with
// its recorded fixtures. Only through this entry do fakes reach users.
export * from './fake-yr-badetemperaturer.js'
export * from './demo-upstreams.js'
