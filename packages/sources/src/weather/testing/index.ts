// What @allmenning/sources/weather/testing offers a test: the source's upstream played locally, with
// its recorded fixtures. Only through this entry do fakes reach users.
export * from './fake-met-locationforecast.js'
export * from './fake-kartverket-tide.js'
export * from './demo-upstreams.js'
