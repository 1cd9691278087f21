import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { discoverFiles } from './discover-files.js'
import { DownloadError } from './download-file.js'
import { startFakePublisher, type FakePublisher } from '../testing/fake-publisher.js'

let publisher: FakePublisher
beforeAll(async () => {
  publisher = await startFakePublisher()
})
afterAll(() => publisher.close())

describe("discovering files on a publisher's page", () => {
  it("makes root-relative and relative links absolute, each once, in the page's order", async () => {
    publisher.publish('/tall/', {
      body: '<a href="/files/a-2024.xlsx">a</a> <a href=\'b-per-mai.xlsx\'>b</a> <a href="/files/a-2024.xlsx">again</a> <a href="/x.pdf">x</a>',
      contentType: 'text/html',
    })
    expect(await discoverFiles(`${publisher.url}/tall/`, /[^"'\s>]*\.xlsx/, 'test')).toEqual([
      `${publisher.url}/files/a-2024.xlsx`,
      `${publisher.url}/tall/b-per-mai.xlsx`,
    ])
  })

  it('fails clearly when the page links no such file or is gone', async () => {
    publisher.publish('/empty/', { body: '<p>Nothing here</p>', contentType: 'text/html' })
    await expect(discoverFiles(`${publisher.url}/empty/`, /\.xlsx/, 'test')).rejects.toThrow(
      /links to no file matching \/\\.xlsx\/; the page may have changed/,
    )
    await expect(discoverFiles(`${publisher.url}/gone/`, /\.xlsx/, 'test')).rejects.toThrow(
      new DownloadError(`${publisher.url}/gone/ answered 404 Not Found`),
    )
  })
})
