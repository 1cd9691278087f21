import { createHash } from 'node:crypto'
import { fakeReply, startFakeUpstream, type FakeUpstream } from '@allmenning/core/testing'
import { SMILEFJES_PATH } from '../mattilsynet-upstream.js'
import { FIXTURE_LINES, smilefjesCsv } from './smilefjes-fixtures.js'

/** The fake publisher, with a way to publish a new version of the file. */
export interface FakeMattilsynet extends FakeUpstream {
  publish(bytes: Buffer, lastModified?: Date): void
}

/**
 * A local stand-in for `data.mattilsynet.no` serving `/smilefjes-tilsyn.csv` as the datasets'
 * `sync` downloads it: the bytes as published (UTF-8 with a byte-order mark), an ETag and
 * Last-Modified, and a 304 to a matching If-None-Match. The content type is not seen in a
 * capture; `text/csv; charset=utf-8` is assumed (the reader goes by the bytes, not the type).
 *
 * @example
 * const fake = await startFakeMattilsynet()
 * // dataset files at `${fake.baseUrl}/smilefjes-tilsyn.csv`
 */
export async function startFakeMattilsynet(
  bytes: Buffer = smilefjesCsv(FIXTURE_LINES),
  lastModified = new Date('2026-11-27T03:10:00Z'),
): Promise<FakeMattilsynet> {
  let file = { bytes, lastModified, etag: '' }
  const etagOf = (b: Buffer) => `"${createHash('sha1').update(b).digest('hex').slice(0, 20)}"`
  file.etag = etagOf(bytes)
  const fake = await startFakeUpstream()
  fake.route(SMILEFJES_PATH, (_url, req) => {
    const validators = { etag: file.etag, 'last-modified': file.lastModified.toUTCString() }
    if (req.headers['if-none-match'] === file.etag) return { status: 304, headers: validators, body: '' }
    return fakeReply.bytes(file.bytes, 'text/csv; charset=utf-8', {
      headers: { ...validators, 'content-length': String(file.bytes.length) },
    })
  })
  return Object.assign(fake, {
    publish(next: Buffer, modified = new Date()) {
      file = { bytes: next, lastModified: modified, etag: etagOf(next) }
    },
  })
}
