/**
 * `@allmenning/sources/testing`: every built-in source with its upstreams played on 127.0.0.1
 * from the sources' own recorded fixtures (each source's own players are in
 * `@allmenning/sources/<id>/testing`), for the offline demo (`ALLMENNING_DEMO=1` in the
 * example server) and for tests of apps that serve them all: no network, no keys.
 *
 * @module
 */
export { startBuiltInDemo, demoNote, type BuiltInDemo } from './start-built-in-demo.js'
