import { createServer } from 'node:http'
import { createApp } from './app.js'

const port = Number(process.env.PORT ?? 3000)
createServer({ maxHeaderSize: 64 * 1024 }, createApp(process.env)).listen(port, () => {
  console.log(`Allmenning with a custom source on http://localhost:${port}/api/v1/kilder/met_varsel`)
})
