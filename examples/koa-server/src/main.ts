import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { EnvironmentVariableError } from '@allmenning/core'
import { answerServerRefusals, closeGracefully } from '@allmenning/core/adapter'
import { createApp } from './app.js'

const port = Number(process.env.PORT || 3000)
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`PORT must be a port number (0 to 65535), got ${JSON.stringify(process.env.PORT)}`)
  process.exit(2)
}
const shutdownTimeoutMs = process.env.SHUTDOWN_TIMEOUT_MS ? Number(process.env.SHUTDOWN_TIMEOUT_MS) : undefined
if (shutdownTimeoutMs !== undefined && !(Number.isInteger(shutdownTimeoutMs) && shutdownTimeoutMs > 0)) {
  console.error(`SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds above 0, got ${JSON.stringify(process.env.SHUTDOWN_TIMEOUT_MS)}`)
  process.exit(2)
}

// Node's default 16 KB header limit would cut long query strings off with a bare 431;
// a larger one lets the gateway answer them with its own JSON 414.
const server = createServer({ maxHeaderSize: 64 * 1024 }, listener())
/** The app, or the start stopped with the message naming a variable of the environment with a bad value. */
function listener() {
  try {
    return createApp(process.env).callback()
  } catch (error) {
    if (!(error instanceof EnvironmentVariableError)) throw error
    console.error(error.message)
    process.exit(2)
  }
}
// What Node refuses by itself (an unknown method, a broken header, an odd Expect) gets JSON too.
answerServerRefusals(server)
server.listen(port, () => {
  // The port bound, which PORT=0 leaves to the system.
  const bound = (server.address() as AddressInfo).port
  console.log(`Allmenning example gateway (Koa) on http://localhost:${bound}/api/v1/`)
  console.log(`MCP: the catalogue at http://localhost:${bound}/mcp, each source at http://localhost:${bound}/{source}/mcp`)
})

// When the orchestrator stops us: no new connections, every request in flight answered, then exit.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    console.log(`${signal}: finishing the requests in flight`)
    void closeGracefully(server, { timeoutMs: shutdownTimeoutMs }).then((clean) => process.exit(clean ? 0 : 1))
  })
}
