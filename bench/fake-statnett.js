// A minimal Statnett stand-in for benchmarks: the recorded physical-flow payload.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const body = readFileSync(
  new URL('../packages/sources/src/statnett/testing/fixtures/physical-flow.json', import.meta.url),
)

export async function startFakeStatnett() {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
    res.end(body)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}/restapi`,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}
