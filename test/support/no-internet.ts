import http from 'node:http'
import https from 'node:https'
import { Agent, buildConnector, getGlobalDispatcher, setGlobalDispatcher } from 'undici'
import { afterAll } from 'vitest'

// No test may reach the internet: upstreams are played by local servers. Every upstream call
// and every dataset download goes through Node's global HTTP agents (an upstream call through
// undici only with a dispatcher a test gives), and what else uses undici (Lovdata's public
// data, tests calling a fake themselves) through its global dispatcher, so these refuse any
// host but the loopback, and the file fails if a test tried one.
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

type CreateConnection = (
  options: { host?: string | null; hostname?: string | null },
  callback: (error: Error | null, socket?: unknown) => void,
) => unknown
const agents = [
  { agent: http.globalAgent, protocol: 'http:' },
  { agent: https.globalAgent, protocol: 'https:' },
].map(({ agent, protocol }) => {
  const target = agent as unknown as { createConnection: CreateConnection }
  const original = target.createConnection
  target.createConnection = function (options, callback) {
    const host = options.hostname ?? options.host ?? ''
    if (loopback.has(host)) return original.call(this, options, callback)
    attempts.push(`${protocol}//${host}`)
    callback(new Error(`tests must not reach the internet (tried ${host})`))
    return undefined
  }
  return { target, original }
})

afterAll(() => {
  setGlobalDispatcher(previous)
  for (const { target, original } of agents) target.createConnection = original
  if (attempts.length > 0)
    throw new Error(`This test file tried to reach the internet: ${[...new Set(attempts)].join(', ')}`)
})
