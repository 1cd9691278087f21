import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { request } from 'undici'
import { afterEach, describe, expect, it } from 'vitest'
import { encodeText } from './encode-text.js'
import { fakeReply } from './fake-reply.js'
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.js'
import { fixtureFiles } from './fixture-files.js'
import { testUpstreamClient } from './operation-context.js'

let fake: FakeUpstream | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await request(`${fake!.baseUrl}${path}`, { headers })
  return { status: res.statusCode, headers: res.headers, bytes: Buffer.from(await res.body.arrayBuffer()) }
}

describe('startFakeUpstream', () => {
  it('matches exact routes before {name} patterns, passes the decoded segments, and answers 404 elsewhere', async () => {
    fake = await startFakeUpstream(
      {
        '/enheter/{orgnr}': (_url, _req, { orgnr }) => fakeReply.json({ pattern: orgnr }),
        '/enheter/lastned': () => fakeReply.json({ exact: true }),
      },
      { prefix: '/enhetsregisteret/api' },
    )
    expect(fake.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/enhetsregisteret\/api$/)
    expect(JSON.parse((await get('/enheter/lastned')).bytes.toString())).toEqual({ exact: true })
    expect(JSON.parse((await get('/enheter/Sm%C3%A5%20bedrifter')).bytes.toString())).toEqual({
      pattern: 'Små bedrifter',
    })
    const missing = await get('/enheter/1/roller')
    expect(missing.status).toBe(404)
    expect(fake.hits('/enheter/{orgnr}')).toBe(1)
    expect(fake.hits('/enheter/lastned')).toBe(1)
    expect(fake.hits()).toBe(3)
    expect(fake.received.map((r) => [r.path, r.route])).toEqual([
      ['/enheter/lastned', '/enheter/lastned'],
      ['/enheter/Sm%C3%A5%20bedrifter', '/enheter/{orgnr}'],
      ['/enheter/1/roller', undefined],
    ])
  })

  it('fails every route for a number of requests, then answers again', async () => {
    fake = await startFakeUpstream({ '/a': () => fakeReply.json([1]), '/b': () => fakeReply.json([2]) })
    fake.failWith(fakeReply.status(503, 'Service Unavailable'), { times: 2 })
    expect((await get('/a')).status).toBe(503)
    expect((await get('/b')).status).toBe(503)
    expect((await get('/a')).status).toBe(200)
    fake.failWith(fakeReply.status(500), { route: '/b' })
    expect((await get('/a')).status).toBe(200)
    expect((await get('/b')).status).toBe(500)
    fake.failWith(undefined)
    expect((await get('/b')).status).toBe(200)
  })

  it('sends text in the charset asked for, with the content type saying so', async () => {
    fake = await startFakeUpstream({
      '/latin1': () => fakeReply.xml('<navn>Tromsø lufthavn</navn>', { charset: 'iso-8859-1' }),
      '/bom': () => fakeReply.text('navn;beløp\n', 'text/csv', { bom: true }),
      '/brreg': () => fakeReply.json({ navn: 'Æ' }, { contentType: 'application/json;charset=UTF-8' }),
    })
    const latin1 = await get('/latin1')
    expect(latin1.headers['content-type']).toBe('text/xml; charset=ISO-8859-1')
    expect(latin1.bytes.includes(0xf8)).toBe(true)
    expect(latin1.bytes.toString('latin1')).toBe('<navn>Tromsø lufthavn</navn>')
    const bom = await get('/bom')
    expect([...bom.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    expect(bom.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect((await get('/brreg')).headers['content-type']).toBe('application/json;charset=UTF-8')
  })

  it('compresses with gzip when asked, and says so', async () => {
    fake = await startFakeUpstream({ '/lastned': () => fakeReply.json([{ navn: 'SESAM AS' }], { gzip: true }) })
    const res = await get('/lastned')
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(JSON.parse(gunzipSync(res.bytes).toString('utf8'))).toEqual([{ navn: 'SESAM AS' }])
  })

  it('plays a hanging, a slow and a dropping upstream as the client sees them', async () => {
    fake = await startFakeUpstream({
      '/stuck': () => fakeReply.hang(),
      '/slow': () => fakeReply.slow(fakeReply.json([]), 400),
      '/gone': () => fakeReply.drop(),
    })
    const client = testUpstreamClient({ id: 'met', name: 'MET Norway', timeoutMs: 150 }, fake.baseUrl)
    await expect(client.getJson('/stuck')).rejects.toMatchObject({
      code: 'upstream_timeout',
      message: expect.stringMatching(/^Upstream MET Norway \(met\) /),
    })
    await expect(client.getJson('/slow')).rejects.toMatchObject({ code: 'upstream_timeout' })
    await expect(client.getJson('/gone')).rejects.toMatchObject({ code: 'upstream_unavailable' })
  })

  it('answers a route that throws with a 500 that names it, and a fallback for unknown paths', async () => {
    fake = await startFakeUpstream(
      {
        '/broken': () => {
          throw new Error('fixture missing')
        },
      },
      { fallback: (url) => fakeReply.status(418, `no ${url.pathname}`) },
    )
    const broken = await get('/broken')
    expect(broken.status).toBe(500)
    expect(broken.bytes.toString()).toBe('The fake route /broken threw: Error: fixture missing')
    const other = await get('/anything/else')
    expect(other.status).toBe(418)
    expect(other.bytes.toString()).toBe('no /anything/else')
  })
})

describe('encodeText', () => {
  it('writes Windows-1252 where it differs from Latin-1, and refuses what a charset cannot hold', () => {
    expect([...encodeText('€ – Å', 'windows-1252')]).toEqual([0x80, 0x20, 0x96, 0x20, 0xc5])
    expect([...encodeText('Å', 'iso-8859-1')]).toEqual([0xc5])
    expect(() => encodeText('€', 'iso-8859-1')).toThrow('"€" (U+20AC) cannot be written in iso-8859-1')
    expect(() => encodeText('\u0081', 'windows-1252')).toThrow(/cannot be written in windows-1252/)
    expect(() => encodeText('a', 'iso-8859-1', { bom: true })).toThrow(/byte order mark/)
  })
})

describe('fixtureFiles', () => {
  it('reads bytes, text in a charset and JSON from a folder', () => {
    const folder = mkdtempSync(join(tmpdir(), 'fixtures-'))
    writeFileSync(join(folder, 'feed.xml'), encodeText('<airport name="TOS">Tromsø</airport>', 'iso-8859-1'))
    writeFileSync(join(folder, 'units.json'), encodeText('[{"navn":"SESAM AS"}]', 'utf-8', { bom: true }))
    const fixtures = fixtureFiles(pathToFileURL(`${folder}/`))
    expect(fixtures.bytes('feed.xml')).toHaveLength(36)
    expect(fixtures.text('feed.xml', 'iso-8859-1')).toBe('<airport name="TOS">Tromsø</airport>')
    expect(fixtures.json('units.json')).toEqual([{ navn: 'SESAM AS' }])
    expect(() => fixtureFiles(pathToFileURL(folder))).toThrow(/folder URL ending in "\/"/)
    rmSync(folder, { recursive: true })
  })
})
