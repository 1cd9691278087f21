import { readFileSync } from 'node:fs'
import type { Charset } from './encode-text.js'

/** Reads the recorded answers kept beside a fake upstream. */
export interface FixtureFiles {
  /** The file's bytes, exactly as recorded: what a fake sends on the wire. */
  bytes(name: string): Buffer
  /** The file decoded from its charset (UTF-8 unless given; a UTF-8 byte order mark is dropped). */
  text(name: string, charset?: Charset): string
  /** The file parsed as UTF-8 JSON. */
  json<T = unknown>(name: string): T
}

/**
 * The fixture files of a folder, named relative to it. Pass a folder URL made from
 * `import.meta.url`, so the fixtures are found wherever the package is installed.
 *
 * @example
 * const fixtures = fixtureFiles(new URL('./fixtures/', import.meta.url))
 * startFakeUpstream({ '/PhysicalFlowMap/GetFlow': () => fakeReply.json(fixtures.bytes('physical-flow.json').toString()) })
 * const xml = fixtures.text('xmlfeed-osl.xml', 'iso-8859-1') // the bytes decoded as the upstream's charset
 */
export function fixtureFiles(folder: URL): FixtureFiles {
  if (!folder.href.endsWith('/'))
    throw new TypeError(`fixtureFiles needs a folder URL ending in "/" (got ${folder.href})`)
  const bytes = (name: string) => readFileSync(new URL(name, folder))
  const text = (name: string, charset: Charset = 'utf-8') => new TextDecoder(charset).decode(bytes(name))
  return {
    bytes,
    text,
    json: <T>(name: string) => JSON.parse(text(name)) as T,
  }
}
