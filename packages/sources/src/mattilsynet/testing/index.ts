// What @allmenning/sources/mattilsynet/testing offers a test: Mattilsynet's file and Kartverket's
// address search played locally, the fixtures, and the demo's datasets.
export * from './fake-mattilsynet.js'
export * from './fake-kartverket-addresses.js'
export * from './smilefjes-fixtures.js'
export * from './demo-upstreams.js'
export * from './demo-datasets.js'
export * from './loaded-datasets.js'
