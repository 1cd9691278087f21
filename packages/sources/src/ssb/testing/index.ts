// What @allmenning/sources/ssb/testing offers a test: SSB's PxWebApi played locally, with our own tables.
export * from './fake-ssb.js'
export * from './demo-upstreams.js'
