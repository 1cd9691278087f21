import { fakeReply, startFakeUpstream, type FakeUpstream } from '@allmenning/core/testing'

// The server apart from the archives it offers, so a fake that serves ready-made archives
// (the demo's) needs no bzip2 compressor.

/** One file the fake offers. */
export interface FakePublicDataFile {
  bytes: Buffer
  description: string
  lastModified: string
}

/** How the fake answers from now on. */
export type FakeLovdataBehaviour =
  | 'ok'
  /** 429 with Lovdata's rate-limit headers, on every path. */
  | 'rate-limited'
  /** The list as an HTML error page with status 200. */
  | 'html-list'
  /** The list in a shape the client does not know (an object, not an array). */
  | 'changed-list'
  /** Downloads send only the first half of the archive, then end. */
  | 'truncated'

export interface FakeLovdata extends FakeUpstream {
  /** Replaces or adds a file, as the nightly rebuild does. */
  publish(filename: string, file: FakePublicDataFile): void
  misbehave(behaviour: FakeLovdataBehaviour): void
}

const RATE_LIMIT_HEADERS = { 'x-ratelimit-limit': '200', 'x-ratelimit-remaining': '199' }

/**
 * Starts a local stand-in for `api.lovdata.no`'s public data: `GET /v1/publicData/list` (a JSON
 * array of `{filename, description, sizeBytes, lastModified}`) and `GET /v1/publicData/get/{file}`
 * (the bytes, `application/x-bzip2`), with the `X-RateLimit-Limit: 200` header the real API sends.
 * Unknown files are a 404. It builds no archive: the files are given (see `startFakeLovdata`
 * for the fixtures built into archives).
 *
 * @example
 * const fake = await startFakePublicData({ 'gjeldende-lover.tar.bz2': { bytes, description: 'Gjeldende lover', lastModified: '2026-09-03T02:14:07Z' } })
 * const lovdata = createLovdataPublicData({ baseUrl: fake.baseUrl })
 */
export async function startFakePublicData(files: Record<string, FakePublicDataFile>): Promise<FakeLovdata> {
  const offered = new Map(Object.entries(files))
  let behaviour: FakeLovdataBehaviour = 'ok'
  const fake = await startFakeUpstream()

  const limited = () =>
    fakeReply.json('{"error":"Too Many Requests"}', {
      status: 429,
      contentType: 'application/json',
      headers: { ...RATE_LIMIT_HEADERS, 'x-ratelimit-remaining': '0', 'retry-after': '60' },
    })

  fake.route('/v1/publicData/list', () => {
    if (behaviour === 'rate-limited') return limited()
    if (behaviour === 'html-list')
      return fakeReply.html('<!DOCTYPE html><html><body><h1>Vedlikehold</h1></body></html>')
    const list = [...offered].map(([filename, file]) => ({
      filename,
      description: file.description,
      sizeBytes: file.bytes.length,
      lastModified: file.lastModified,
    }))
    const body = behaviour === 'changed-list' ? JSON.stringify({ files: list }) : JSON.stringify(list)
    return fakeReply.json(body, { contentType: 'application/json', headers: RATE_LIMIT_HEADERS })
  })

  const routeFile = (filename: string) =>
    fake.route(`/v1/publicData/get/${filename}`, () => {
      if (behaviour === 'rate-limited') return limited()
      const file = offered.get(filename)
      if (!file) return { status: 404, body: '' }
      const bytes = behaviour === 'truncated' ? file.bytes.subarray(0, Math.floor(file.bytes.length / 2)) : file.bytes
      return fakeReply.bytes(bytes, 'application/x-bzip2', {
        headers: {
          ...RATE_LIMIT_HEADERS,
          'content-length': String(bytes.length),
          'content-disposition': `attachment; filename=${filename}`,
        },
      })
    })
  for (const filename of offered.keys()) routeFile(filename)

  return Object.assign(fake, {
    publish(filename: string, file: FakePublicDataFile) {
      if (!offered.has(filename)) routeFile(filename)
      offered.set(filename, file)
    },
    misbehave(next: FakeLovdataBehaviour) {
      behaviour = next
    },
  })
}
