// What @allmenning/sources/vegvesen/testing offers a test: the trafikkdata GraphQL API and the
// DATEX II situation server played locally, with fixtures of their formats, and the demo
// upstreams of the whole source. Only through this entry do fakes reach users.
export * from './fake-trafikkdata.js'
export * from './fake-datex.js'
export * from './demo-upstreams.js'
