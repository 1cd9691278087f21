import { createServer } from 'node:http'
import { createApp } from './app.js'

const port = Number(process.env.PORT ?? 3000)
// Node's default 16 KB header limit would cut long query strings off with a bare 431;
// a larger one lets the gateway answer them with its own JSON 414.
const server = createServer({ maxHeaderSize: 64 * 1024 }, createApp(process.env))
server.listen(port, () => {
  console.log(`Allmenning example gateway (Express) on http://localhost:${port}/api/v1/`)
  console.log(`MCP: the catalogue at http://localhost:${port}/mcp, each source at http://localhost:${port}/{source}/mcp`)
})
