// The server's CPU cost per request, counted in instructions rather than timed, so a busy
// machine cannot move it: the MCP benchmark server runs under valgrind (callgrind), takes a
// fixed number of warm REST GETs or warm tools/calls (or none, for the baseline of starting
// and warming up), and the instructions beyond the baseline are divided by the number of
// requests. Needs valgrind; run after `npm run build` with `node bench/mcp-instructions.js`.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { startFakeStatnett } from './fake-statnett.js'

const requests = Number(process.env.BENCH_REQUESTS ?? 2000)
const path = '/api/v1/kilder/statnett/get_physical_flow?area=NO2&limit=10'
const mcpBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'get_physical_flow', arguments: { area: 'NO2', limit: 10 } },
})
const mcpHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
}

/** Instructions the server process executes from start to exit, serving `amount` requests of one kind. */
async function instructions(framework, upstream, kind, amount) {
  const out = join(tmpdir(), `allmenning-mcp-${process.pid}-${framework}-${kind}-${amount}.callgrind`)
  const server = fileURLToPath(new URL('./mcp-server.js', import.meta.url))
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${out}`,
      process.execPath,
      server,
      framework,
      upstream.url,
      path,
      mcpBody,
    ],
    {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    },
  )
  const [ready] = await once(child, 'message')
  const origin = `http://127.0.0.1:${ready.port}`
  if (amount > 0) {
    const target =
      kind === 'rest'
        ? { url: `${origin}${path}` }
        : { url: `${origin}/statnett/mcp`, method: 'POST', headers: mcpHeaders, body: mcpBody }
    const result = await autocannon({ ...target, connections: 4, amount, timeout: 60 })
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${kind}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  }
  child.kill('SIGINT')
  await once(child, 'exit')
  const summary = /^summary: (\d+)/m.exec(readFileSync(out, 'utf8'))
  rmSync(out, { force: true })
  if (!summary) throw new Error('callgrind wrote no summary')
  return Number(summary[1])
}

export async function instructionReport(frameworks = ['express', 'koa']) {
  const upstream = await startFakeStatnett()
  const rows = []
  for (const framework of frameworks) {
    const base = await instructions(framework, upstream, 'rest', 0)
    const rest = ((await instructions(framework, upstream, 'rest', requests)) - base) / requests
    const mcp = ((await instructions(framework, upstream, 'mcp', requests)) - base) / requests
    rows.push(
      `| ${framework} | ${Math.round(rest)} | ${Math.round(mcp)} | ${(mcp / rest).toFixed(3)} | ${mcp / rest <= 1.25 ? 'met (≤ 1.25)' : 'MISSED (≤ 1.25)'} |`,
    )
  }
  await upstream.close()
  return [
    '',
    `Server instructions per request (callgrind; ${requests} warm requests beyond a start-and-warm-up baseline; 4 connections)`,
    '',
    '| framework | GET | tools/call | tools/call ÷ GET | target |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await instructionReport())
