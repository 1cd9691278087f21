import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { UpstreamError } from '@allmenning/core/source'
import { readLovdataArchive } from './archive-reader.js'
import { LOVDATA_RULE_FILES } from './lovdata-upstream.js'
import { createLovdataPublicData } from './public-data-client.js'
import { startFakeLovdata, type FakeLovdata } from './testing/fake-lovdata.js'

describe('createLovdataPublicData', () => {
  let fake: FakeLovdata
  beforeEach(async () => {
    fake = await startFakeLovdata()
  })
  afterEach(async () => {
    await fake.close()
  })

  it('lists the files with their rebuild times', async () => {
    const files = await createLovdataPublicData({ baseUrl: fake.baseUrl }).list()
    expect(files.map((f) => [f.filename, f.lastModified])).toEqual([
      ['gjeldende-lover.tar.bz2', '2026-09-03T02:14:07Z'],
      ['gjeldende-sentrale-forskrifter.tar.bz2', '2026-09-03T02:31:44Z'],
      ['lovtidend-avd1-2001-2025.tar.bz2', '2026-01-05T03:02:51Z'],
      ['lovtidend-avd1-2026.tar.bz2', '2026-09-03T02:40:12Z'],
    ])
    expect(files[0]?.sizeBytes).toBeGreaterThan(1000)
    expect(fake.requests).toEqual(['/v1/publicData/list'])
  })

  it('streams a download into the archive reader', async () => {
    const download = await createLovdataPublicData({ baseUrl: fake.baseUrl }).download(LOVDATA_RULE_FILES.laws)
    expect(download.url).toBe(`${fake.baseUrl}/v1/publicData/get/gjeldende-lover.tar.bz2`)
    const ids: string[] = []
    for await (const doc of readLovdataArchive(download.body)) ids.push(doc.documentId)
    expect(ids).toContain('NL/lov/2005-05-20-28')
    expect(ids).toHaveLength(5)
    expect(download.sizeBytes).toBeGreaterThan(1000)
  })

  it('answers a 502 naming Lovdata for an unknown file, a 429 and a list in another shape', async () => {
    const client = createLovdataPublicData({ baseUrl: fake.baseUrl })
    await expect(client.download('lovtidend-avd1-1999.tar.bz2')).rejects.toThrow(
      'Upstream Lovdata public data (lovdata) answered HTTP 404 for /v1/publicData/get/lovtidend-avd1-1999.tar.bz2',
    )
    fake.misbehave('changed-list')
    await expect(client.list()).rejects.toThrow(
      'Upstream Lovdata public data (lovdata) answered the public data file list in an unexpected shape',
    )
    fake.misbehave('html-list')
    await expect(client.list()).rejects.toThrow('answered a file list that is not JSON')
    fake.misbehave('rate-limited')
    const error = await client.list().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UpstreamError)
    expect(error).toMatchObject({
      status: 502,
      upstreamStatus: 429,
      message: 'Upstream Lovdata public data (lovdata) rate limited the gateway (HTTP 429) for /v1/publicData/list',
    })
  })

  it('reports a download that ends half-way as a broken archive', async () => {
    fake.misbehave('truncated')
    const { body } = await createLovdataPublicData({ baseUrl: fake.baseUrl }).download(LOVDATA_RULE_FILES.laws)
    await expect(
      (async () => {
        for await (const _ of readLovdataArchive(body));
      })(),
    ).rejects.toThrow(/The archive could not be read/)
  })

  it('names Lovdata when it cannot be reached or is too slow', async () => {
    await expect(createLovdataPublicData({ baseUrl: 'http://127.0.0.1:9' }).list()).rejects.toThrow(
      'Upstream Lovdata public data (lovdata) could not be reached',
    )
    fake.route('/v1/publicData/list', () => ({ delayMs: 500, body: '[]' }))
    await expect(createLovdataPublicData({ baseUrl: fake.baseUrl, timeoutMs: 100 }).list()).rejects.toThrow(
      'did not answer within 100 ms',
    )
  })

  it('refuses a file name that is not a plain name before calling', async () => {
    await expect(createLovdataPublicData({ baseUrl: fake.baseUrl }).download('../list')).rejects.toThrow(TypeError)
    expect(fake.requests).toEqual([])
  })
})
