import { createServer } from 'node:http'
import { createApp } from './app.js'

const port = Number(process.env.PORT || 3000)
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  throw new Error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}`)
}

// Node's default 16 KB header limit would cut long query strings off with a bare 431;
// a larger one lets the gateway answer them with its own JSON 414.
const server = createServer({ maxHeaderSize: 64 * 1024 }, createApp(process.env).callback())
server.listen(port, () => {
  console.log(`Allmenning example gateway (Koa) on http://localhost:${port}/api/v1/`)
})

// Let in-flight requests finish when a container orchestrator stops us.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => server.close(() => process.exit(0)))
}
