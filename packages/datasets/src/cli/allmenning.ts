#!/usr/bin/env node
import { runCli } from './run-cli.js'

// The `allmenning` executable. Ctrl-C stops a running import between batches; the version
// that was loaded before keeps serving.
const controller = new AbortController()
process.once('SIGINT', () => controller.abort())
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  tty: process.stderr.isTTY === true,
  signal: controller.signal,
})
