#!/usr/bin/env node
import { runCli } from './run-cli.js'

// The `allmenning` executable. Ctrl-C (or a scheduler's SIGTERM) stops a running download,
// or an import between batches; the version that was loaded before keeps serving.
const controller = new AbortController()
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => controller.abort(new Error(`interrupted (${signal})`)))
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  tty: process.stderr.isTTY === true,
  signal: controller.signal,
})
