import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { EnvironmentVariableError, serverSettingsFromEnv } from '@allmenning/core'
import { answerServerRefusals, closeGracefully } from '@allmenning/core/adapter'
import { createApp } from './app.js'
import { demoRequested } from './demo/demo-requested.js'

// ALLMENNING_DEMO=1: every upstream played on this machine from the sources' fixtures. Loaded only
// then: the players are test code, which a real gateway never loads.
const demo = startsDemo(process.env)
  ? await (await import('./demo/start-demo.js')).startExampleDemo(process.env, console.log)
  : undefined
// @keyv/redis (and the node-redis client inside it) is loaded only when REDIS_URL asks for it.
const redis = process.env.REDIS_URL ? await import('@keyv/redis') : undefined
const { port, shutdownTimeoutMs, listener, gateway } = fromEnvironment()
// Node's default 16 KB header limit would cut long query strings off with a bare 431;
// a larger one lets the gateway answer them with its own JSON 414.
const server = createServer({ maxHeaderSize: 64 * 1024 }, listener)
/** The server's settings and the app, or the start stopped with the message naming a variable of the environment with a bad value. */
function fromEnvironment() {
  try {
    const app = demo ? createApp(demo.env, demo.options) : createApp(process.env, {}, redis)
    return { ...serverSettingsFromEnv(process.env), listener: app, gateway: app.gateway }
  } catch (error) {
    exitOnBadVariable(error)
  }
}
function startsDemo(env: NodeJS.ProcessEnv): boolean {
  try {
    return demoRequested(env)
  } catch (error) {
    exitOnBadVariable(error)
  }
}
function exitOnBadVariable(error: unknown): never {
  if (!(error instanceof EnvironmentVariableError)) throw error
  console.error(error.message)
  process.exit(2)
}
// What Node refuses by itself (an unknown method, a broken header, an odd Expect) gets JSON too,
// through the gateway's exit like its other answers (its onResponse hook, when it has one).
answerServerRefusals(server, gateway)
server.listen(port, () => {
  // The port bound, which PORT=0 leaves to the system.
  const bound = (server.address() as AddressInfo).port
  console.log(
    `Allmenning example gateway (Express)${demo ? ', offline demo,' : ''} on http://localhost:${bound}/api/v1/`,
  )
  console.log(
    `MCP: the catalogue at http://localhost:${bound}/mcp, each source at http://localhost:${bound}/{source}/mcp`,
  )
})

// When the orchestrator stops us: no new connections, every request in flight answered, then exit.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    console.log(`${signal}: finishing the requests in flight`)
    void closeGracefully(server, { timeoutMs: shutdownTimeoutMs })
      .then(async (clean) => {
        await demo?.close()
        return clean
      })
      .then((clean) => process.exit(clean ? 0 : 1))
  })
}
