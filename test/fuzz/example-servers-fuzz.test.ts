import { Agent, request, type RequestListener, type Server } from 'node:http'
import { connect } from 'node:net'
import { gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp as createExpressApp } from '../../examples/express-server/src/app.js'
import { createApp as createKoaApp } from '../../examples/koa-server/src/app.js'
import { startFakeAvinor } from '@allmenning/sources/avinor/testing'
import { startFakeBrreg } from '@allmenning/sources/firmafakta/testing'
import { startFakeStatnett } from '@allmenning/sources/statnett/testing'
import { listenAsTheExamples } from '../support/example-server.js'
import { offlineEnvironment } from '../support/offline-environment.js'

// What a hostile or careless client sends to the example servers over real HTTP: the gateway's
// routes and the host app's own, malformed JSON bodies, odd charsets, bad content encodings,
// odd paths and methods, and (on raw sockets) bytes no HTTP client would send. Every answer
// must be JSON in the shared schema with a status below 500 and no stack trace. The requests
// reach only the sources played by local stand-ins (Statnett, Avinor, Brønnøysund); every other
// upstream is a closed local port, which cross-source search and discovery routes must live with.
const perServer = 6000
const seed = 20261124

const sources = ['statnett', 'avinor', 'firmafakta'] as const
const operations = [
  'statnett/get_physical_flow',
  'statnett/get_production_consumption',
  'statnett/get_power_situation',
  'statnett/get_price_area',
  'avinor/get_flights',
  'avinor/lookup_airport',
  'avinor/lookup_airline',
  'firmafakta/organisasjonsnummer_for_selskap',
  'firmafakta/selskapsdetaljer',
  'firmafakta/roller_i_enhet',
  'firmafakta/underenheter_for_selskap',
]
const nasty = [
  '',
  '%',
  '%E0%A4%A',
  '%ZZ',
  '%00',
  '%2F',
  '%2e%2e',
  '..',
  '__proto__',
  'constructor',
  '+',
  '&',
  '=',
  '==',
  '%C3%A6',
  '%FF%FE',
  '%EF%BF%BD',
  '%F0%9F%92%A9',
  'NO1',
  'OSL',
  'SK',
  '976030788',
  '923609016',
  '-1',
  '0',
  '1e9',
  '99999999999999999999',
  'null',
  'true',
  '[]',
  '{}',
  '%20',
  '%0D%0A',
  'a'.repeat(300),
]
const names = [
  'limit',
  'offset',
  'area',
  'airport_id',
  'direction',
  'hours_back',
  'hours_ahead',
  'max_results',
  'query',
  'org_nr',
  'company_name',
  'q',
  'mode',
  'sources',
  'lat',
  'lon',
  'county',
]
// A query-safe word: percent-encoded, so Node's client sends it and the server decodes it.
const word = fc.oneof(
  fc.constantFrom(...nasty),
  fc.string({ maxLength: 10 }).map(encodeURIComponent),
  fc.stringMatching(/^[a-z_]{1,12}$/),
)
const query = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.tuple(fc.oneof(fc.constantFrom(...names), word), word).map(([k, v]) => `${k}=${v}`) },
      word,
    ),
    { maxLength: 5 },
  )
  .map((parts) => (parts.length ? `?${parts.join('&')}` : ''))
const segment = fc.oneof(
  fc.constantFrom(
    'api',
    'v1',
    'kilder',
    'sok',
    'alle',
    'schema',
    'openapi.json',
    'feedback',
    'steder',
    'health',
    ...sources,
  ),
  word,
)
// Requests a well-meaning client sends, so that a good share are answered by the stand-ins.
const plausible = fc.constantFrom(
  '/api/v1/kilder/statnett/get_physical_flow?area=NO1',
  '/api/v1/kilder/statnett/get_physical_flow',
  '/api/v1/kilder/statnett/get_production_consumption',
  '/api/v1/kilder/statnett/get_power_situation',
  '/api/v1/kilder/avinor/get_flights?airport_id=OSL',
  '/api/v1/kilder/avinor/get_flights?airport_id=TOS&direction=departures',
  '/api/v1/kilder/avinor/lookup_airport?query=oslo',
  '/api/v1/kilder/avinor/lookup_airline?query=SAS',
  '/api/v1/kilder/firmafakta/selskapsdetaljer?org_nr=976030788',
  '/api/v1/kilder/firmafakta/roller_i_enhet?org_nr=976030788',
  '/api/v1/kilder/firmafakta/organisasjonsnummer_for_selskap?company_name=sesam',
  '/api/v1/sok/alle?q=avinor',
  '/api/v1/',
  '/api/v1/kilder',
  '/api/v1/openapi.json',
  '/health',
)
const path = fc.oneof(
  { weight: 4, arbitrary: plausible },
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.constantFrom(...operations), fc.boolean(), query)
      .map(([op, schema, q]) => `/api/v1/kilder/${op}${schema ? '/schema' : ''}${q}`),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          '/api/v1/',
          '/api/v1/kilder',
          '/api/v1/sok/alle',
          '/api/v1/feedback',
          '/api/v1/openapi.json',
          '/api/v1/kilder/avinor',
          '/api',
          '/api/',
        ),
        query,
      )
      .map(([p, q]) => p + q),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          '/health',
          '/',
          '/favicon.ico',
          '/apiary',
          '//api//v1',
          '/api/v2/',
          '/API/V1/',
          '/%2e%2e/%2e%2e/etc/passwd',
          `/${'x'.repeat(5000)}`,
        ),
        query,
      )
      .map(([p, q]) => p + q),
  },
  { weight: 2, arbitrary: fc.tuple(fc.array(segment, { maxLength: 6 }), query).map(([s, q]) => `/${s.join('/')}${q}`) },
)
const method = fc.oneof(
  { weight: 10, arbitrary: fc.constant('GET') },
  { weight: 3, arbitrary: fc.constant('POST') },
  fc.constantFrom('HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'MKCOL', 'SEARCH', 'PURGE', 'LOCK'),
)
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=klingon',
  'application/json; charset=',
  'application/*+json',
  'application/vnd.api+json',
  'text/plain',
  'text/plain; charset=iso-8859-1',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/octet-stream',
  ';;;',
  'json',
  '',
)
const contentEncoding = fc.constantFrom(
  undefined,
  undefined,
  undefined,
  'gzip',
  'deflate',
  'br',
  'identity',
  'zstd',
  'x-nonsense',
  'gzip, gzip',
)
const bodyText = fc.oneof(
  fc.constantFrom(
    '{"q": ',
    '{',
    '}',
    'nul',
    '\u0000',
    '[1,2',
    '{"a":1}}',
    '{"message":"hei","source":"avinor"}',
    '{"message":"æøå 💩"}',
    '"just a string"',
    '1e999999',
    '[]',
    'a=1&b=2&a[b]=c',
    '{"__proto__":{"polluted":true}}',
  ),
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 60 }),
  fc.constant(`{"message":"${'x'.repeat(200_000)}"}`),
)
const body = fc
  .tuple(bodyText, fc.constantFrom('utf8', 'latin1', 'utf16le', 'gzip', 'random'), fc.uint8Array({ maxLength: 64 }))
  .map(([text, as, random]) =>
    as === 'gzip' ? gzipSync(text) : as === 'random' ? Buffer.from(random) : Buffer.from(text, as),
  )
const extraHeaders = fc.dictionary(
  fc.oneof(
    {
      weight: 20,
      arbitrary: fc.constantFrom(
        'accept',
        'accept-charset',
        'if-none-match',
        'x-forwarded-for',
        'cookie',
        'range',
        'x-http-method-override',
        'origin',
        'accept-encoding',
      ),
    },
    fc.constant('expect'),
  ),
  fc.oneof(
    fc.constantFrom(
      '*',
      'W/"abc"',
      '*/*',
      'text/html',
      'application/json;q=0',
      '1.2.3.4, 999.1.1.1, garbage',
      'bytes=0-1',
      'DELETE',
      'a=b; c',
    ),
    fc.stringMatching(/^[\x21-\x7e]{0,40}$/),
  ),
  { maxKeys: 3 },
)

interface HttpCase {
  kind: 'http'
  method: string
  path: string
  headers: Record<string, string>
  body: Buffer | undefined
}
interface RawCase {
  kind: 'raw'
  method: string
  text: Buffer
}
const httpCase: fc.Arbitrary<HttpCase> = fc
  .tuple(method, path, fc.option(body, { freq: 2 }), contentType, contentEncoding, extraHeaders)
  .map(([m, p, b, type, encoding, extra]) => ({
    kind: 'http',
    method: m,
    path: p,
    // Node's client frames a GET's or DELETE's body only when told its length.
    headers: {
      ...extra,
      ...(b ? { 'content-type': type, 'content-length': String(b.length) } : {}),
      ...(b && encoding ? { 'content-encoding': encoding } : {}),
    },
    body: b ?? undefined,
  }))
// What only a raw socket sends: unknown and lower-case methods, raw bytes in the path, broken
// header lines, conflicting framing, other protocol versions. Each is sent whole: a client that
// promises a body and hangs up without it has left, and is owed no answer.
const rawFraming = fc.constantFrom(
  ['', ''],
  ['', '{"q": '],
  ['Bad Header\r\n', ''],
  ['X-Ctl: a\u0001b\r\n', ''],
  [' folded: header\r\n', ''],
  [`X-Big: ${'a'.repeat(70 * 1024)}\r\n`, ''],
  ['Content-Length: 6\r\nContent-Length: 7\r\n', '{"q": x'],
  ['Content-Length: -1\r\n', ''],
  ['Content-Type: application/json\r\nContent-Length: 6\r\n', '{"q": '],
  ['Content-Type: application/json\r\nContent-Length: 2\r\n', '{}GARBAGE / HTTP/1.1\r\n\r\n'],
  ['Transfer-Encoding: chunked\r\nContent-Length: 3\r\n', '3\r\nabc\r\n0\r\n\r\n'],
  ['Transfer-Encoding: chunked\r\n', 'zz\r\nnot a chunk\r\n0\r\n\r\n'],
  ['Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n', '5\r\n{"a":\r\n0\r\n\r\n'],
  ['Transfer-Encoding: gzip, chunked\r\n', '0\r\n\r\n'],
)
const rawCase: fc.Arbitrary<RawCase> = fc
  .tuple(
    fc.constantFrom('GET', 'get', 'BREW', 'G@T', 'POST', 'HEAD', ''),
    fc.constantFrom(
      '/api/v1/',
      '/api/v1/kilder/statnett/get_physical_flow?area=NO1',
      '/health',
      '/ä',
      '/a b',
      '/\u0000',
      '*',
      'http://evil.example/api/v1/',
      '/api/v1/sok/alle?q=æøå',
      '',
    ),
    fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 extra', 'HTTX/1.1', ''),
    rawFraming,
  )
  .map(([m, p, version, [headers, b]]) => ({
    kind: 'raw',
    method: m,
    text: Buffer.from(`${m} ${p} ${version}\r\nHost: fuzz\r\n${headers}Connection: close\r\n\r\n${b}`, 'latin1'),
  }))
const cases = fc.sample(fc.oneof({ weight: 19, arbitrary: httpCase }, { weight: 1, arbitrary: rawCase }), {
  numRuns: perServer,
  seed,
})

interface Answer {
  status: number
  type: string | undefined
  body: string
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 })
/** The last request sent on each kept-alive connection. */
const lastOnSocket = new WeakMap<object, string>()

function sendHttp(port: number, c: HttpCase): Promise<Answer | { failure: string }> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, method: c.method, path: c.path, headers: c.headers, agent },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            type: res.headers['content-type'],
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        res.on('error', (error) => resolve({ failure: error.message }))
      },
    )
    // A failure on a kept-alive connection is often the doing of the request before it on the same one.
    let before: string | undefined
    req.on('socket', (socket) => {
      before = lastOnSocket.get(socket)
      lastOnSocket.set(
        socket,
        `${c.method} ${c.path.slice(0, 80)} ${JSON.stringify(c.headers)} (${c.body?.length ?? 0} bytes)`,
      )
    })
    req.on('error', (error) =>
      resolve({ failure: `${error.message}; before it on this connection: ${before ?? 'nothing'}` }),
    )
    // A request left unanswered is a finding, not a hung test.
    req.setTimeout(15000, () => req.destroy(new Error('no answer within 15 s')))
    req.end(c.body)
  })
}

/** Sends raw bytes and reads the first answer. */
function sendRaw(port: number, c: RawCase): Promise<Answer | { failure: string }> {
  return new Promise((resolve) => {
    // Written, not ended: like a real client it keeps its side open until the answer is read
    // (a half-closed connection is one Node stops answering); `Connection: close` ends it.
    const socket = connect(port, '127.0.0.1', () => socket.write(c.text))
    socket.setTimeout(5000, () => socket.destroy())
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', () => undefined)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const split = text.indexOf('\r\n\r\n')
      if (split === -1) return resolve({ failure: `closed after ${text.length} bytes without an answer` })
      const head = text.slice(0, split).split('\r\n')
      const header = (name: string) =>
        head
          .find((line) => line.toLowerCase().startsWith(`${name}:`))
          ?.slice(name.length + 1)
          .trim()
      let rest = text.slice(split + 4)
      const length = header('content-length')
      if (length !== undefined) rest = rest.slice(0, Number(length))
      resolve({ status: Number(head[0]!.split(' ')[1]), type: header('content-type'), body: rest })
    })
  })
}

/** Runs `work` over `items` with at most `width` in flight. */
async function pool<T>(items: T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]!)
    }),
  )
}

const stackTrace = /\n\s+at |node_modules|\.[cm]?[jt]s:\d+|<html|<pre>/i

let fakes: { close(): Promise<void> }[]
let env: Record<string, string>
const internal: unknown[] = []
beforeAll(async () => {
  const [statnett, avinor, brreg] = [await startFakeStatnett(), await startFakeAvinor(), await startFakeBrreg()]
  fakes = [statnett, avinor, brreg]
  // Rate limits off: from one client, the examples' default quota would answer all but the first 300 requests with a 429.
  env = offlineEnvironment({
    ALLMENNING_UPSTREAM_STATNETT: statnett.baseUrl,
    ALLMENNING_UPSTREAM_AVINOR: avinor.baseUrl,
    ALLMENNING_UPSTREAM_BRREG: brreg.baseUrl,
    ALLMENNING_RATE_LIMIT: 'off',
  })
})
afterAll(async () => {
  agent.destroy()
  await Promise.all(fakes.map((f) => f.close()))
})

const apps: Record<string, () => RequestListener> = {
  express: () =>
    createExpressApp(env, {
      onError: (error, kind) => kind === 'internal' && internal.push(error),
      onFeedback: () => {},
    }),
  koa: () =>
    createKoaApp(env, {
      gateway: { onError: (error, kind) => kind === 'internal' && internal.push(error), onFeedback: () => {} },
      onHostError: (error) => internal.push(error),
    }).callback(),
}

describe.each(Object.keys(apps))('the example %s server, fuzzed over real HTTP', (name) => {
  let server: Server
  let port: number
  beforeAll(async () => {
    ;({ server, port } = await listenAsTheExamples(apps[name]!()))
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it(`answers ${perServer} generated requests with JSON, below 500, without a stack trace`, {
    timeout: 120_000,
  }, async () => {
    const problems: string[] = []
    const statuses = new Map<number, number>()
    let unanswered = 0
    internal.length = 0
    const started = performance.now()
    await pool(cases, 16, async (c) => {
      const answer = c.kind === 'http' ? await sendHttp(port, c) : await sendRaw(port, c)
      const what =
        c.kind === 'http'
          ? `${c.method} ${c.path.slice(0, 120)} ${JSON.stringify(c.headers)} ${c.body?.subarray(0, 40).toString('latin1') ?? ''}`
          : JSON.stringify(c.text.subarray(0, 160).toString('latin1'))
      if ('failure' in answer) {
        unanswered++
        return void problems.push(`no answer (${answer.failure}): ${what}`)
      }
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
      const fault = (problem: string) =>
        void problems.push(`${problem} (${answer.status}, ${answer.body.slice(0, 120)}): ${what}`)
      if (answer.status >= 500) fault('a 5xx')
      if (stackTrace.test(answer.body)) fault('a stack trace')
      const bodiless = c.method === 'HEAD' || answer.status === 304
      if (bodiless) return
      if (!answer.type?.startsWith('application/json')) return fault(`content type ${answer.type}`)
      let json: { error?: { status?: number; code?: unknown } }
      try {
        json = JSON.parse(answer.body) as typeof json
      } catch {
        return fault('a body that is not JSON')
      }
      if (answer.status >= 400 && (json.error?.status !== answer.status || typeof json.error.code !== 'string'))
        fault('an error outside the shared schema')
    })
    const seconds = (performance.now() - started) / 1000
    console.info(
      `[fuzz] ${name}: ${cases.length} requests in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([x], [y]) => x - y)))}`,
    )
    expect(problems.slice(0, 20)).toEqual([])
    expect(unanswered).toBe(0)
    expect(internal).toEqual([])
    // The fuzz reached both the gateway's answers and its refusals.
    expect(statuses.get(200)).toBeGreaterThan(cases.length / 10)
    expect(statuses.get(400)).toBeGreaterThan(cases.length / 20)
  })
})
