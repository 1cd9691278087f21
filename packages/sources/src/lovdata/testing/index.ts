// What @allmenning/sources/lovdata/testing offers a test: the source's upstream played locally, with
// its recorded fixtures. Only through this entry do fakes reach users.
export * from './fake-domstol.js'
export * from './demo-upstreams.js'
export { demoRuleArchives, demoRuleArchive, type DemoRuleArchive } from './demo-rule-archives.js'
export * from './demo-datasets.js'
