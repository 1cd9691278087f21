// What @allmenning/sources/poi_norge/testing offers a test: the source's upstream played locally, with
// its recorded fixtures. Only through this entry do fakes reach users.
export * from './fake-overpass.js'
export * from './demo-upstreams.js'
