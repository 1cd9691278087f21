import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('../../', import.meta.url))
// Inside the repository, so that the bundle's external imports resolve from its node_modules.
const outDir = `${root}node_modules/.cache/allmenning-test`

/**
 * Bundles a TypeScript entry point (relative to the repository root, or an absolute path outside
 * node_modules, where the tsconfig's paths do not apply), the workspace packages
 * taken from their TypeScript sources (tsconfig paths) and every other package left to
 * node_modules, so a test can run it as a process of its own without a build first.
 *
 * @example
 * const bundle = await bundleEntry('examples/koa-server/src/main.ts')
 */
export async function bundleEntry(entry: string): Promise<string> {
  mkdirSync(outDir, { recursive: true })
  const outfile = `${outDir}/${entry.replace(/[^a-z0-9]+/gi, '-')}-${process.pid}.mjs`
  await build({
    entryPoints: [entry.startsWith('/') ? entry : `${root}${entry}`],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: `${root}tsconfig.json`,
    // The workspace packages bundled from their TypeScript sources, as their exports name them.
    conditions: ['@allmenning/source'],
    // An entry written outside the repository (a docs recipe in a temporary folder) finds the
    // workspace packages where the repository installed them.
    nodePaths: [`${root}node_modules`],
    logLevel: 'error',
    plugins: [
      {
        name: 'third-party-external',
        setup(plugin) {
          plugin.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@allmenning/') ? undefined : { path: args.path, external: true },
          )
        },
      },
    ],
  })
  return outfile
}

/** An example server's `main.ts`, bundled as `npm start` runs it. */
export const bundleExample = (example: 'express-server' | 'koa-server') =>
  bundleEntry(`examples/${example}/src/main.ts`)

export interface BundledProcess {
  child: ChildProcess
  baseUrl: string
  /** Everything it printed, stdout and stderr. */
  output(): string
  /** Its exit code, once it has exited (a signal's name when killed by one). */
  exited: Promise<number | string>
}

/**
 * Starts a bundled server with `PORT=0` and the given environment, and waits until it prints
 * the `http://localhost:<port>/` it listens on, as the example servers do. `execArgv` goes to
 * node before the bundle (an `--import` of hooks, say).
 */
export async function startBundled(
  bundle: string,
  env: Record<string, string>,
  { execArgv = [] }: { execArgv?: string[] } = {},
): Promise<BundledProcess> {
  const child = spawn(process.execPath, [...execArgv, bundle], {
    env: { PATH: process.env.PATH ?? '', ...env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  )
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the process did not start within 10 s:\n${output}`)), 10_000)
    const look = () => {
      const found = /http:\/\/localhost:(\d+)\//.exec(output)
      if (!found) return
      clearTimeout(timer)
      child.stdout!.off('data', look)
      resolve(found[1]!)
    }
    child.stdout!.on('data', look)
    void exited.then((code) => reject(new Error(`the process exited with ${code} before it listened:\n${output}`)))
  })
  return { child, baseUrl: `http://127.0.0.1:${port}`, output: () => output, exited }
}
