#!/usr/bin/env node
// The `allmenning` command. It is a file of its own, present before any build, because npm
// links a package's executables when it installs: an executable inside dist/ would not be
// linked on a fresh clone, where dist/ is built after `npm install`.
import { existsSync } from 'node:fs'

const built = new URL('../dist/allmenning.js', import.meta.url)
if (!existsSync(built)) {
  console.error('allmenning: the command is not built yet; run `npm run build` at the repository root first')
  process.exit(1)
}
await import(built.href)
