// The Lambda example's bundle as it is deployed: handler.mjs and the chunks it loads on demand,
// in a folder with no node_modules anywhere above it, as in a function's /var/task. A dependency
// the bundle reaches at run time instead of carrying it (a require() the bundler cannot see, a
// chunk left behind) works in the repository, where node_modules is found up the tree, and
// fails only here. Each lazily loaded part is asked for: MCP (the SDK, zod), the first upstream
// call (Node's own HTTP client, loaded from the runtime), a court decision (the markup parser,
// and PDF.js for its full text) and REDIS_URL (@keyv/redis and its client).
import { execFile } from 'node:child_process'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FakeUpstream } from '@allmenning/core/testing'
import { startFakeDomstol } from '@allmenning/sources/lovdata/testing'
import { startFakeStatnett } from '@allmenning/sources/statnett/testing'

const root = join(import.meta.dirname, '..', '..')
const folders: string[] = []
let task: string
let statnett: FakeUpstream
let domstol: Awaited<ReturnType<typeof startFakeDomstol>>

beforeAll(async () => {
  const built = mkdtempSync(join(tmpdir(), 'allmenning-lambda-build-'))
  task = mkdtempSync(join(tmpdir(), 'allmenning-lambda-task-'))
  folders.push(built, task)
  await promisify(execFile)(
    process.execPath,
    [join(root, 'node_modules/rolldown/bin/cli.mjs'), '-c', 'rolldown.config.js', '--dir', built],
    { cwd: join(root, 'examples/lambda') },
  )
  // What is deployed: every file the build wrote, the entry and its chunks (source maps too).
  for (const file of readdirSync(built)) copyFileSync(join(built, file), join(task, file))
  statnett = await startFakeStatnett()
  domstol = await startFakeDomstol()
}, 180_000)

afterAll(async () => {
  await statnett?.close()
  await domstol?.close()
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

interface Ask {
  path: string
  query?: string
  method?: 'GET' | 'POST'
  body?: unknown
}

const event = ({ path, query = '', method = 'GET', body }: Ask) => ({
  version: '2.0',
  routeKey: '$default',
  rawPath: path,
  rawQueryString: query,
  headers: {
    host: 'abc.execute-api.eu-north-1.amazonaws.com',
    ...(body === undefined
      ? {}
      : { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }),
  },
  requestContext: {
    accountId: '1',
    apiId: 'abc',
    domainName: 'abc.execute-api.eu-north-1.amazonaws.com',
    domainPrefix: 'abc',
    requestId: 'r',
    routeKey: '$default',
    stage: '$default',
    time: '',
    timeEpoch: 0,
    http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'test' },
  },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  isBase64Encoded: false,
})

/** Imports the deployed handler in a fresh process and answers each event in turn; the files the process loaded from the task folder come back too. */
async function answer(asks: Ask[], env: Record<string, string> = {}) {
  const run = `
    const { handler } = await import(${JSON.stringify(join(task, 'handler.mjs'))})
    const context = { awsRequestId: 'r', functionName: 'f', getRemainingTimeInMillis: () => 29000 }
    const answers = []
    for (const e of ${JSON.stringify(asks.map(event))}) {
      const { statusCode, body } = await handler(e, context)
      answers.push({ statusCode, body })
    }
    console.log(JSON.stringify(answers))
    process.exit(0)
  `
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', run], {
    cwd: task,
    env: {
      PATH: process.env.PATH ?? '',
      AWS_REGION: 'eu-north-1',
      AWS_LAMBDA_FUNCTION_NAME: 'allmenning-gateway',
      ALLMENNING_RATE_LIMIT: 'off',
      ...env,
    },
    encoding: 'utf8',
  })
  return JSON.parse(stdout.trim().split('\n').pop()!) as { statusCode: number; body: string }[]
}

describe('the Lambda example bundle, alone in a folder', () => {
  it('is an entry and chunks beside it, with no node_modules above', () => {
    const files = readdirSync(task)
    expect(files).toContain('handler.mjs')
    expect(files.filter((file) => file !== 'handler.mjs' && file.endsWith('.mjs')).length).toBeGreaterThan(0)
  })

  it('writes the cold-start code in ASCII, which Node reads into a one-byte string', () => {
    const code = readFileSync(join(task, 'handler.mjs'))
    const outside = code.findIndex((byte) => byte > 0x7f)
    expect(outside, `a byte outside ASCII near: ${code.subarray(Math.max(0, outside - 60), outside + 20)}`).toBe(-1)
  })

  it('answers the API index and a source descriptor', async () => {
    const answers = await answer([{ path: '/api/v1/' }, { path: '/api/v1/kilder/lovdata' }])
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200])
  }, 60_000)

  it('answers an ALB event with its status text', async () => {
    const alb = {
      requestContext: { elb: { targetGroupArn: 'arn:aws:elasticloadbalancing:eu-north-1:1:targetgroup/t/1' } },
      httpMethod: 'GET',
      path: '/api/v1/kilder/nope',
      queryStringParameters: {},
      headers: { host: 'data.example.no' },
      body: '',
      isBase64Encoded: false,
    }
    const run = `
      const { handler } = await import(${JSON.stringify(join(task, 'handler.mjs'))})
      const { statusCode, statusDescription } = await handler(${JSON.stringify(alb)}, {})
      console.log(JSON.stringify({ statusCode, statusDescription }))
      process.exit(0)
    `
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', run], {
      cwd: task,
      env: { PATH: process.env.PATH ?? '', ALLMENNING_RATE_LIMIT: 'off' },
      encoding: 'utf8',
    })
    expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({
      statusCode: 404,
      statusDescription: '404 Not Found',
    })
  }, 60_000)

  it('loads the MCP chunks on the first MCP request and answers initialize and tools/list', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' }
    const [init, tools] = await answer([
      { path: '/statnett/mcp', method: 'POST', body: initialize },
      { path: '/statnett/mcp', method: 'POST', body: list },
    ])
    expect(init!.statusCode).toBe(200)
    expect(JSON.parse(init!.body).result.serverInfo.name).toMatch(/statnett/)
    expect(tools!.statusCode).toBe(200)
    expect(JSON.parse(tools!.body).result.tools.map((t: { name: string }) => t.name)).toContain('get_physical_flow')
  }, 60_000)

  it("answers from the upstream on the first upstream call, through Node's own HTTP client", async () => {
    const [flow] = await answer([{ path: '/api/v1/kilder/statnett/get_physical_flow', query: 'area=NO2&limit=2' }], {
      ALLMENNING_UPSTREAM_STATNETT: statnett.baseUrl,
    })
    expect(flow!.statusCode, flow!.body).toBe(200)
    expect(JSON.parse(flow!.body).data.length).toBe(2)
    expect(statnett.requests.length).toBeGreaterThan(0)
  }, 60_000)

  it('loads the markup parser for a court decision, and PDF.js (with its worker, without a canvas) for its full text', async () => {
    const asks = [
      { path: '/api/v1/kilder/lovdata/get_case_law', query: 'ref=HR-2025-844-A' },
      { path: '/api/v1/kilder/lovdata/get_case_law', query: 'ref=HR-2025-844-A&full_text=true' },
    ]
    const [decision, withText] = await answer(asks, { ALLMENNING_UPSTREAM_DOMSTOL: domstol.baseUrl })
    expect(decision!.statusCode, decision!.body).toBe(200)
    expect(JSON.parse(decision!.body).data.summary).toMatch(/vegloven § 53/)
    expect(withText!.statusCode, withText!.body).toBe(200)
    const { full_text: text, note } = JSON.parse(withText!.body).data
    expect(text, note).toMatch(/HØYESTERETT/i)
  }, 60_000)

  it('loads the Redis client when REDIS_URL is set, and serves while Redis cannot be reached', async () => {
    // Port 9 (discard) on the loopback: nothing listens, so the client keeps reconnecting.
    const [index] = await answer([{ path: '/api/v1/' }], { REDIS_URL: 'redis://127.0.0.1:9' })
    expect(index!.statusCode).toBe(200)
  }, 60_000)
})
