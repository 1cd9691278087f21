import { Agent, buildConnector, getGlobalDispatcher, setGlobalDispatcher } from 'undici'
import { afterAll } from 'vitest'

// No test may reach the internet: upstreams are played by local servers. Every upstream call
// goes through undici's global dispatcher unless a test gives its own, so this one refuses
// any host but the loopback, and the file fails if a test tried one.
const loopback = new Set(['127.0.0.1', 'localhost', '::1', '[::1]'])
const attempts: string[] = []
const connect = buildConnector({})
const previous = getGlobalDispatcher()

setGlobalDispatcher(
  new Agent({
    connect(options, callback) {
      if (loopback.has(options.hostname)) return connect(options, callback)
      attempts.push(`${options.protocol}//${options.hostname}`)
      callback(new Error(`tests must not reach the internet (tried ${options.hostname})`), null)
    },
  }),
)

afterAll(() => {
  setGlobalDispatcher(previous)
  if (attempts.length > 0) throw new Error(`This test file tried to reach the internet: ${[...new Set(attempts)].join(', ')}`)
})
