// The example gateway as a user runs it: its own built `dist/main.js`, started with the
// environment a user gives it (rate limits, metrics, tracing, MCP and every built-in source on,
// as shipped), pinned to core 0 beside the load generator on core 1. What a child started
// this way uses in CPU is read from /proc, as the example answers no IPC of the bench's.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { pinned } from './bench-process.js'

const mains = {
  express: '../examples/express-server/dist/main.js',
  koa: '../examples/koa-server/dist/main.js',
}

/**
 * Starts the example of `framework` with `env` added to this process's environment, and
 * resolves once it says where it listens.
 */
export async function startExample(framework, env) {
  const file = fileURLToPath(new URL(mains[framework], import.meta.url))
  const command = pinned ? ['taskset', '-c', '0', process.execPath] : [process.execPath]
  const child = spawn(command[0], [...command.slice(1), file], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const port = await new Promise((resolve, reject) => {
    let seen = ''
    child.stdout.on('data', (chunk) => {
      seen += chunk
      const match = /on http:\/\/localhost:(\d+)\//.exec(seen)
      if (match) resolve(Number(match[1]))
    })
    child.once('exit', (code) =>
      reject(new Error(`the ${framework} example exited (${code}) before listening: ${seen}`)),
    )
  })
  // Its later lines are not the bench's business, but the pipe must not fill.
  child.stdout.resume()
  return { child, port, cpuMicros: () => cpuMicrosOf(child.pid) }
}

/** User and system CPU time a process has used, in µs (Linux: /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMicrosOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}
