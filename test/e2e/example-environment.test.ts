import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RequestListener, Server } from 'node:http'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { FakeUpstream } from '@allmenning/core/testing'
import { createApp as createExpressApp } from '../../examples/express-server/src/app.js'
import { createApp as createKoaApp } from '../../examples/koa-server/src/app.js'
import { startFakeStatnett } from '@allmenning/sources/statnett/testing'
import { bundleEntry, bundleExample, startBundled, type BundledProcess } from '../support/bundled-process.js'
import { listenAsTheExamples } from '../support/example-server.js'
import { offlineEnvironment } from '../support/offline-environment.js'

/*
 * The examples as a deployment runs them, configured from the environment: rate limits on by
 * default (300 requests per 60 s), tunable and `off`; the contact in the User-Agent sent
 * upstream; a bad value stopping the start with a message naming the variable.
 */

let statnett: FakeUpstream
beforeAll(async () => {
  statnett = await startFakeStatnett()
})
afterAll(async () => {
  await statnett.close()
})

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

const apps: Record<string, (env: Record<string, string>) => RequestListener> = {
  Express: (env) => createExpressApp(env, { onError: () => {} }),
  Koa: (env) => createKoaApp(env, { gateway: { onError: () => {} } }).callback(),
}

async function serve(example: string, env: Record<string, string>): Promise<string> {
  const { server, base } = await listenAsTheExamples(
    apps[example]!(offlineEnvironment({ ALLMENNING_UPSTREAM_STATNETT: statnett.baseUrl, ...env })),
  )
  servers.push(server)
  return base
}

/** `count` requests for the index, 50 at a time, from one client: their statuses and Retry-After headers. */
async function ask(base: string, count: number): Promise<{ status: number; retryAfter: string | null }[]> {
  const answers: { status: number; retryAfter: string | null }[] = []
  for (let sent = 0; sent < count; sent += 50) {
    const batch = Array.from({ length: Math.min(50, count - sent) }, async () => {
      const res = await fetch(`${base}/api/v1/`)
      await res.arrayBuffer()
      return { status: res.status, retryAfter: res.headers.get('retry-after') }
    })
    answers.push(...(await Promise.all(batch)))
  }
  return answers
}

describe.each(Object.keys(apps))('the %s example, configured from the environment', (example) => {
  it('answers 429 with Retry-After once one client is past the default quota of 300 requests', async () => {
    const base = await serve(example, {})
    const answers = await ask(base, 300)
    expect(answers.filter((a) => a.status !== 200)).toEqual([])
    const over = await fetch(`${base}/api/v1/`)
    expect(over.status).toBe(429)
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(((await over.json()) as { error: { code: string } }).error.code).toBe('rate_limited')
  })

  it('limits nobody with ALLMENNING_RATE_LIMIT=off', async () => {
    const base = await serve(example, { ALLMENNING_RATE_LIMIT: 'off' })
    const answers = await ask(base, 320)
    expect(answers.filter((a) => a.status !== 200)).toEqual([])
    expect((await fetch(`${base}/api/v1/`)).headers.get('ratelimit')).toBeNull()
  })

  it('takes its quota from ALLMENNING_RATE_LIMIT', async () => {
    const base = await serve(example, { ALLMENNING_RATE_LIMIT: '5/60' })
    const answers = await ask(base, 6)
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429])
  })

  it('sends ALLMENNING_CONTACT upstream in the User-Agent, after the gateway and its version', async () => {
    const base = await serve(example, { ALLMENNING_CONTACT: 'ops@example.no' })
    const res = await fetch(`${base}/api/v1/kilder/statnett/get_power_situation`)
    expect(res.status).toBe(200)
    expect(statnett.received.at(-1)?.headers['user-agent']).toMatch(/^allmenning\/\d+\.\d+\.\d+ \(\+ops@example\.no\)$/)
  })

  it('refuses a bad value with an error naming the variable and its rule', () => {
    const env = offlineEnvironment()
    expect(() => apps[example]!({ ...env, ALLMENNING_RATE_LIMIT: 'lots' })).toThrow(
      /^ALLMENNING_RATE_LIMIT must be <requests>\/<window seconds>.*, got "lots"$/,
    )
    expect(() => apps[example]!({ ...env, ALLMENNING_CONTACT: 'nobody' })).toThrow(
      /^ALLMENNING_CONTACT must be an e-mail address or an http\(s\) URL, got "nobody"$/,
    )
    expect(() => apps[example]!({ ...env, ALLMENNING_TRUST_PROXY: 'yes' })).toThrow(
      /^ALLMENNING_TRUST_PROXY must be off, on, or/,
    )
    expect(() => apps[example]!({ ...env, ALLMENNING_CACHE_MAX_MB: '0' })).toThrow(
      /^ALLMENNING_CACHE_MAX_MB must be a number of MiB above 0, got "0"$/,
    )
    expect(() => apps[example]!({ ...env, REDIS_URL: 'localhost:6379' })).toThrow(
      /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/,
    )
    expect(() => apps[example]!({ ...env, PUBLIC_BASE_URL: 'data.example.no' })).toThrow(
      'PUBLIC_BASE_URL must be an http(s) URL, got "data.example.no"',
    )
  })
})

it('the Express example refuses a MOUNT_PATH that is not a path', () => {
  expect(() => apps.Express!({ ...offlineEnvironment(), MOUNT_PATH: 'wiki' })).toThrow(
    'MOUNT_PATH must be a path starting with /, got "wiki"',
  )
})

describe('the example processes, started with a bad value', { timeout: 60_000 }, () => {
  /** Runs a bundle to its end, and gives its exit code and everything it printed. */
  function runToExit(bundle: string, env: Record<string, string>) {
    const child = spawn(process.execPath, [bundle], {
      env: { PATH: process.env.PATH ?? '', ...env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
    return new Promise<{ code: number | null; output: string }>((resolve) =>
      child.once('exit', (code) => {
        clearTimeout(timer)
        resolve({ code, output })
      }),
    )
  }

  it.each(['express-server', 'koa-server'] as const)(
    '%s does not start, and says which variable and why',
    async (example) => {
      const { code, output } = await runToExit(await bundleExample(example), {
        ALLMENNING_RATE_LIMIT_EXPENSIVE: '30 per minute',
      })
      expect(code).toBe(2)
      expect(output.trim()).toBe(
        'ALLMENNING_RATE_LIMIT_EXPENSIVE must be <requests>/<window seconds> with both whole numbers above 0 (e.g. 300/60), or off, got "30 per minute"',
      )
    },
  )

  it('an example server refuses a SHUTDOWN_TIMEOUT_MS that is not a number', async () => {
    const { code, output } = await runToExit(await bundleExample('express-server'), { SHUTDOWN_TIMEOUT_MS: 'soon' })
    expect(code).toBe(2)
    expect(output.trim()).toBe('SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds above 0, got "soon"')
  })

  it('the Lambda example refuses an ALLMENNING_MCP other than on or off', async () => {
    const { code, output } = await runToExit(await bundleEntry('test/support/lambda-example-process.ts'), {
      ALLMENNING_MCP: 'no',
    })
    expect(code).not.toBe(0)
    expect(output).toContain('EnvironmentVariableError: ALLMENNING_MCP must be on or off, got "no"')
  })

  it('the Lambda example fails its init phase with the message', async () => {
    const { code, output } = await runToExit(await bundleEntry('test/support/lambda-example-process.ts'), {
      ALLMENNING_CACHE_MAX_MB: 'big',
    })
    expect(code).not.toBe(0)
    expect(output).toContain(
      'EnvironmentVariableError: ALLMENNING_CACHE_MAX_MB must be a number of MiB above 0, got "big"',
    )
  })

  it('the Lambda example limits one client to the default quota', async () => {
    let lambda: BundledProcess | undefined
    try {
      lambda = await startBundled(
        await bundleEntry('test/support/lambda-example-process.ts'),
        offlineEnvironment({ ALLMENNING_UPSTREAM_STATNETT: statnett.baseUrl }),
      )
      const answers = await ask(lambda.baseUrl.replace(/\/$/, ''), 301)
      expect(answers.slice(0, 300).filter((a) => a.status !== 200)).toEqual([])
      expect(answers[300]!.status).toBe(429)
      expect(Number(answers[300]!.retryAfter)).toBeGreaterThan(0)
    } finally {
      lambda?.child.kill('SIGKILL')
      await lambda?.exited
    }
  })
})

describe('the example processes and @keyv/redis', { timeout: 60_000 }, () => {
  // A resolve hook in the started process that says so on stderr when @keyv/redis is imported.
  let hooks: string
  beforeAll(() => {
    hooks = mkdtempSync(join(tmpdir(), 'allmenning-import-hooks-'))
    writeFileSync(
      join(hooks, 'hooks.mjs'),
      `import { writeSync } from 'node:fs'
export async function resolve(specifier, context, next) {
  if (specifier === '@keyv/redis') writeSync(2, 'imported @keyv/redis\\n')
  return next(specifier, context)
}
`,
    )
    writeFileSync(
      join(hooks, 'register.mjs'),
      `import { register } from 'node:module'\nregister('./hooks.mjs', import.meta.url)\n`,
    )
  })
  afterAll(() => rmSync(hooks, { recursive: true, force: true }))

  /** Starts a bundle until it listens, stops it, and gives whether it imported @keyv/redis on the way. */
  async function importsRedis(bundle: string, env: Record<string, string>) {
    const server = await startBundled(bundle, env, { execArgv: ['--import', join(hooks, 'register.mjs')] })
    // Until its pipes close, so whatever the hook wrote before the listening line is read.
    const closed = once(server.child, 'close')
    server.child.kill('SIGKILL')
    await closed
    return server.output().includes('imported @keyv/redis')
  }

  it.each(['express-server', 'koa-server'] as const)('%s imports it only when REDIS_URL is set', async (example) => {
    const bundle = await bundleExample(example)
    const env = offlineEnvironment({ ALLMENNING_UPSTREAM_STATNETT: statnett.baseUrl })
    expect(await importsRedis(bundle, env)).toBe(false)
    // Redis unreachable: the example still starts, counting and caching in process until it is back.
    expect(await importsRedis(bundle, { ...env, REDIS_URL: 'redis://127.0.0.1:1' })).toBe(true)
  })
})
