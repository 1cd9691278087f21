// Builds the Lambda example as another commit had it, for bench/lambda.js to measure its cold
// start beside this build's in the same run (BENCH_LAMBDA_REFERENCE): a detached worktree of
// that commit, its dependencies installed with `npm ci` as its lock file names them (from the
// npm registry), and its bundle built. A directory that already holds the build is reused.
//
//   node bench/reference-lambda.js <commit> [directory]
//   BENCH_LAMBDA_REFERENCE=<the printed dist/> node bench/lambda.js
//
// The directory defaults to allmenning-reference-<commit> in the system's temporary directory;
// `git worktree remove <directory>` takes it away.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const repository = fileURLToPath(new URL('..', import.meta.url))

/**
 * Runs a command with its output shown on standard error (an install and a build take minutes),
 * so standard output carries only the dist/ printed at the end; exits on failure.
 */
function run(command, args, cwd) {
  console.error(`$ ${command} ${args.join(' ')}   (in ${cwd})`)
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 2, 2] })
  if (result.status !== 0) {
    console.error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`)
    process.exit(1)
  }
}

const [asked, directoryArgument] = process.argv.slice(2)
if (!asked) {
  console.error('usage: node bench/reference-lambda.js <commit> [directory]')
  process.exit(2)
}
const parsed = spawnSync('git', ['rev-parse', '--verify', '--quiet', `${asked}^{commit}`], {
  cwd: repository,
  encoding: 'utf8',
})
if (parsed.status !== 0) {
  console.error(`"${asked}" names no commit of this repository`)
  process.exit(2)
}
const commit = parsed.stdout.trim()
const directory = resolve(directoryArgument ?? join(tmpdir(), `allmenning-reference-${commit.slice(0, 12)}`))
const dist = join(directory, 'examples', 'lambda', 'dist')

if (existsSync(join(dist, 'handler.mjs'))) {
  console.error(`${directory} holds the build already`)
} else {
  if (!existsSync(directory)) run('git', ['worktree', 'add', '--detach', directory, commit], repository)
  run('npm', ['ci', '--no-audit', '--no-fund'], directory)
  run('npm', ['run', 'build', '--workspace', 'examples/lambda'], directory)
}
console.log(dist)
