import { once } from 'node:events'
import { Worker } from 'node:worker_threads'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type GatewayOptions } from '@allmenning/core'
import { avinor, firmafakta, statnett } from '@allmenning/sources'
import { readAvinorFixture } from '@allmenning/sources/avinor/testing'
import { brregFixtures } from '@allmenning/sources/firmafakta/testing'
import { startLagProbe } from '../support/loop-lag.js'

// The upstream stand-in runs on a thread of its own, so that making and sending its huge
// bodies never shows up in the event-loop measurements of the gateway under test.
const standIn = `
const { parentPort } = require('node:worker_threads')
const { createServer } = require('node:http')
// What each path answers; '*' for every path not named.
const answers = new Map([['*', { body: Buffer.alloc(0), announce: false }]])
function sized(bytes, item, head = '', tail = '', xml = false) {
  // A JSON list of items, or (xml) the items one after another, as ISO-8859-1 bytes.
  const [open, glue, close, encoding] = xml ? ['', '', '', 'latin1'] : ['[', ',', ']', 'utf8']
  const count = Math.max(1, Math.floor((bytes - head.length - tail.length - 2) / (Buffer.byteLength(item, encoding) + glue.length)))
  // INDEX becomes one of 100 four-letter codes, in turn: a list of that many different entries,
  // however many bytes it is padded to. (What is timed is reading the body, not ranking names.)
  const letters = (i) => Array.from({ length: 4 }, (_, k) => String.fromCharCode(65 + (Math.floor(i / 26 ** k) % 26))).join('')
  const items = item.includes('INDEX') ? Array.from({ length: count }, (_, i) => item.replaceAll('INDEX', letters(i % 100))) : new Array(count).fill(item)
  const text = Buffer.from(head + open + items.join(glue) + close + tail.replace('COUNT', String(count)), encoding)
  return Buffer.concat([text, Buffer.alloc(Math.max(0, bytes - text.length), ' ')])
}
const server = createServer((req, res) => {
  const answer = answers.get(new URL(req.url, 'http://x').pathname) ?? answers.get('*')
  const body = answer.body
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...(answer.announce ? { 'content-length': String(body.length) } : {}) })
  let offset = 0
  const pump = () => {
    while (offset < body.length) {
      const chunk = body.subarray(offset, offset + 65536)
      offset += chunk.length
      if (!res.write(chunk)) return void res.once('drain', pump)
    }
    res.end()
  }
  res.on('error', () => undefined)
  pump()
})
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }))
parentPort.on('message', ({ bytes, item, head, tail, announce, xml, path, text }) => {
  const body = text === undefined ? sized(bytes, item, head, tail, xml) : Buffer.from(text, 'latin1')
  answers.set(path ?? '*', { body, announce })
  parentPort.postMessage({ ready: body.length })
})
`

// Flow rows exactly as Statnett sends them; a huge answer is a great many of them.
const row = '{"OutAreaElspotId":"NO1","InAreaElspotId":"SE3","Value":-1234.5,"MeasureDate":1771062744000}'

// Avinor's XmlFeed as recorded for OSL, cut into its frame and its <flight> elements: a busy
// airport over the widest window is the same frame around thousands of them.
const osl = readAvinorFixture('xmlfeed-osl.xml')
const firstFlight = osl.search(/<flight[\s>]/)
const afterFlights = osl.lastIndexOf('</flight>') + '</flight>'.length
const xmlFeed = {
  head: osl.slice(0, firstFlight),
  flights: osl.slice(firstFlight, afterFlights),
  tail: osl.slice(afterFlights),
}
const flightsAt = (bytes: number) =>
  answerWith(bytes, xmlFeed.flights, { head: xmlFeed.head, tail: xmlFeed.tail, xml: true, path: '/XmlFeed/v1.0' })
// Different airports: a list of one airport repeated would rightly be refused as cut short.
const airportNames = '<airportName code="INDEX" name="Lufthavn INDEX"/>\n'
const airportList = (bytes: number) =>
  answerWith(bytes, airportNames, {
    head: '<?xml version="1.0" encoding="ISO-8859-1"?>\n<airportNames xmlns="http://www.avinor.no/xmlfeed/airportnames/v1.0">\n',
    tail: '</airportNames>\n',
    xml: true,
    path: '/airportNames/v1.0',
  })
/** Avinor's three name lists as recorded, on their own paths. */
async function recordedLists() {
  await answerPath('/airportNames/v1.0', readAvinorFixture('airport-names.xml'))
  await answerPath('/airlineNames/v1.0', readAvinorFixture('airline-names.xml'))
  await answerPath('/flightStatuses/v1.0', readAvinorFixture('flight-statuses.xml'))
}
const getFlights = '/api/v1/kilder/avinor/get_flights'

let worker: Worker
let baseUrl: string

/** Makes the stand-in's next answer: exactly `bytes` bytes, as many `item`s as fit in a JSON list. */
async function answerWith(
  bytes: number,
  item: string,
  options: { announce?: boolean; head?: string; tail?: string; xml?: boolean; path?: string } = {},
) {
  worker.postMessage({
    bytes,
    item,
    head: options.head ?? '',
    tail: options.tail ?? '',
    announce: options.announce ?? false,
    xml: options.xml ?? false,
    path: options.path,
  })
  const [message] = (await once(worker, 'message')) as [{ ready: number }]
  expect(message.ready).toBe(bytes)
}

/** Makes one path answer exactly `text`, as ISO-8859-1 bytes. */
async function answerPath(path: string, text: string) {
  worker.postMessage({ path, text })
  await once(worker, 'message')
}
const rows = (bytes: number, announce = false) => answerWith(bytes, row, { announce })

beforeAll(async () => {
  worker = new Worker(standIn, { eval: true })
  const [message] = (await once(worker, 'message')) as [{ port: number }]
  baseUrl = `http://127.0.0.1:${message.port}`
})
afterAll(() => worker.terminate())

const gatewayWith = (options: Partial<GatewayOptions> = {}) =>
  createGateway({
    sources: [statnett(), firmafakta(), avinor()],
    upstreams: { statnett: { baseUrl }, brreg: { baseUrl }, avinor: { baseUrl } },
    onError: () => {},
    hotCacheEntries: 0,
    ...options,
  })

async function flow(
  gateway: ReturnType<typeof gatewayWith>,
  area: string,
  path = '/api/v1/kilder/statnett/get_physical_flow',
  query = `area=${area}`,
) {
  const rssBefore = process.memoryUsage().rss
  const probe = startLagProbe()
  const res = await gateway.handle({ method: 'GET', path, query, headers: {} })
  const lagMs = probe.stop()
  return { res, lagMs, rssGrowth: process.memoryUsage().rss - rssBefore, body: JSON.parse(res.body!) }
}

// Wall-clock lag also counts the moments the OS gives this thread's core to another test file
// running in parallel; a retry tells that noise from a real stall, which fails every time.
describe('upstream bodies are bounded', { retry: 2 }, () => {
  beforeAll(async () => {
    // A first call of each operation compiles the code on its path; that is start-up work,
    // not what an upstream body costs, so it is done before anything is measured.
    const gateway = gatewayWith()
    await rows(4096)
    await flow(gateway, 'NO5')
    await answerWith(4096, JSON.stringify(brregFixtures().enheter[0]), {
      head: '{"_embedded":{"enheter":',
      tail: '},"page":{"size":100,"totalElements":COUNT,"totalPages":1,"number":0}}',
    })
    await flow(gateway, '', '/api/v1/kilder/firmafakta/organisasjonsnummer_for_selskap', 'company_name=warm')
    // Both of Avinor's parsers: the whole-document one for small answers, the streaming one for large.
    await recordedLists()
    for (const bytes of [8192, 256 * 1024]) {
      await flightsAt(bytes)
      await flow(gatewayWith(), '', getFlights, 'airport_id=OSL')
      await airportList(bytes)
      await flow(gatewayWith(), '', '/api/v1/kilder/avinor/lookup_airport', 'query=oslo')
    }
  })

  it('drops a 45 MB answer as it streams in: a 502, the loop never stalled, memory barely grew', async () => {
    await rows(45 * 1024 * 1024)
    const { res, lagMs, rssGrowth, body } = await flow(gatewayWith(), 'NO1')
    expect(res.status).toBe(502)
    expect(body.error).toMatchObject({ code: 'upstream_invalid_response', upstream: 'statnett' })
    expect(body.error.message).toMatch(/sent more than the \d+ bytes accepted/)
    expect(lagMs).toBeLessThan(50)
    expect(rssGrowth).toBeLessThan(64 * 1024 * 1024)
  })

  it('refuses a 45 MB answer its Content-Length announces, before reading it', async () => {
    await rows(45 * 1024 * 1024, true)
    const { res, lagMs, body } = await flow(gatewayWith(), 'NO2')
    expect(res.status).toBe(502)
    expect(body.error.message).toMatch(/announced 4\d+ bytes, more than the \d+ accepted/)
    expect(lagMs).toBeLessThan(50)
  })

  it("keeps the gateway-wide default to a few MB, and Statnett's own limit below it", async () => {
    const limit = 256 * 1024
    await rows(limit + 1, true)
    expect((await flow(gatewayWith({ upstream: { maxBodyBytes: 64 * 1024 * 1024 } }), 'NO3')).res.status).toBe(502)
    await rows(limit, true)
    expect((await flow(gatewayWith(), 'NO4')).res.status).toBe(200)
  })

  it('processes the largest answer Statnett may send without blocking the event loop for 50 ms', async () => {
    const limit = 256 * 1024
    // The right shape, as many rows as fit: parsing, checking and mapping all of them.
    await rows(limit)
    const flows = await flow(gatewayWith(), 'SE1')
    expect(flows.res.status).toBe(200)
    expect(flows.lagMs).toBeLessThan(50)
    // The costliest JSON per byte to parse: a flat list of one-digit numbers, of the wrong shape.
    await answerWith(limit, '0')
    const numbers = await flow(gatewayWith(), 'SE2')
    expect(numbers.res.status).toBe(502)
    expect(numbers.body.error.code).toBe('upstream_invalid_response')
    expect(numbers.lagMs).toBeLessThan(50)
  })

  it('processes the largest XmlFeed Avinor may send (4 MiB, over 10,000 flights) without blocking the event loop for 50 ms', async () => {
    const limit = 4 * 1024 * 1024
    await recordedLists()
    await flightsAt(limit)
    const flights = await flow(
      gatewayWith(),
      '',
      getFlights,
      'airport_id=OSL&hours_back=96&hours_ahead=144&max_results=1000',
    )
    expect(flights.res.status, flights.res.body!).toBe(200)
    expect(flights.body.data.flights.length).toBeGreaterThan(0)
    expect(flights.lagMs).toBeLessThan(50)
  })

  it("processes a 4 MiB airport list on any of Avinor's paths without blocking the event loop for 50 ms", async () => {
    await airportList(4 * 1024 * 1024)
    // And the flight feed on the airport list's path: refused at its first element.
    await answerPath(
      '/airlineNames/v1.0',
      xmlFeed.head +
        xmlFeed.flights.repeat(Math.floor((4 * 1024 * 1024 - 2000) / xmlFeed.flights.length)) +
        xmlFeed.tail,
    )
    const lookup = await flow(gatewayWith(), '', '/api/v1/kilder/avinor/lookup_airport', 'query=oslo')
    expect(lookup.res.status, lookup.res.body!).toBe(200)
    expect(lookup.lagMs).toBeLessThan(50)
  })

  it('processes the largest search page Brønnøysund may send without blocking the event loop for 50 ms', async () => {
    const limit = 512 * 1024
    const unit = JSON.stringify(brregFixtures().enheter[0])
    await answerWith(limit, unit, {
      head: '{"_embedded":{"enheter":',
      tail: '},"page":{"size":100,"totalElements":COUNT,"totalPages":1,"number":0}}',
    })
    const search = await flow(
      gatewayWith(),
      '',
      '/api/v1/kilder/firmafakta/organisasjonsnummer_for_selskap',
      'company_name=sesam',
    )
    expect(search.res.status, search.res.body!).toBe(200)
    expect(search.lagMs).toBeLessThan(50)
  })
})
