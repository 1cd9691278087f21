// What @allmenning/sources/firmafakta/testing offers a test: the source's upstream played locally, with
// its recorded fixtures. Only through this entry do fakes reach users.
export * from './fake-brreg.js'
export * from './fake-regnskapsregisteret.js'
export * from './demo-datasets.js'
