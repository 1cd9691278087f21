import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakePublisher, type FakePublisher } from '../testing/fake-publisher.js'
import { downloadFile, DownloadError } from './download-file.js'

let dir: string
let publisher: FakePublisher
const servers: Server[] = []
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'allmenning-download-'))
  publisher = await startFakePublisher()
})
afterAll(async () => {
  await publisher.close()
  for (const server of servers) server.close()
  rmSync(dir, { recursive: true, force: true })
})

async function listen<T extends Server>(server: T): Promise<string> {
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const csv = 'Org;Amount\n111;5\n222;6\n'

describe('downloading a dataset file', () => {
  it('writes the file and keeps its validators, then writes nothing on a 304', async () => {
    publisher.publish('/data/grants.csv', { body: csv, contentType: 'text/csv' })
    const path = join(dir, 'grants.csv')
    const first = await downloadFile(`${publisher.url}/data/grants.csv`, path, { userAgent: 'allmenning-test' })
    expect(first).toMatchObject({
      status: 'downloaded',
      bytes: csv.length,
      lastModified: 'Sun, 22 Nov 2026 02:00:00 GMT',
    })
    expect(first.etag).toMatch(/^"0x[0-9A-F]{16}"$/)
    expect(readFileSync(path, 'utf8')).toBe(csv)
    const second = await downloadFile(`${publisher.url}/data/grants.csv`, path, {
      userAgent: 'allmenning-test',
      etag: first.etag,
    })
    expect(second).toMatchObject({ status: 'unchanged', bytes: 0, etag: first.etag })
    expect(publisher.requests.slice(-2).map((r) => [r.status, r.userAgent, r.ifNoneMatch])).toEqual([
      [200, 'allmenning-test', undefined],
      [304, 'allmenning-test', first.etag],
    ])
  })

  it('follows redirects, relative ones too, and gives up after five', async () => {
    publisher.publish('/data/moved.csv', { body: csv, contentType: 'text/csv' })
    const base = await listen(
      createHttpServer((request, response) => {
        const hop = Number(/\/hop\/(\d+)/.exec(request.url ?? '')?.[1] ?? 0)
        if (request.url === '/file')
          return void response.writeHead(302, { location: `${publisher.url}/data/moved.csv` }).end()
        if (request.url?.startsWith('/relative')) return void response.writeHead(301, { location: '/file' }).end()
        response.writeHead(307, { location: `/hop/${hop + 1}` }).end()
      }),
    )
    const path = join(dir, 'moved.csv')
    expect(await downloadFile(`${base}/relative`, path, { userAgent: 'allmenning-test' })).toMatchObject({
      status: 'downloaded',
      bytes: csv.length,
    })
    expect(readFileSync(path, 'utf8')).toBe(csv)
    await expect(
      downloadFile(`${base}/hop/0`, join(dir, 'loop.csv'), { userAgent: 'allmenning-test' }),
    ).rejects.toThrow(new DownloadError(`${base}/hop/0 redirected more than 5 times`))
  })

  it('says what went wrong, and leaves no partial file', async () => {
    const path = join(dir, 'missing.csv')
    await expect(
      downloadFile(`${publisher.url}/nothing-here.csv`, path, { userAgent: 'allmenning-test' }),
    ).rejects.toThrow(new DownloadError(`${publisher.url}/nothing-here.csv answered 404 Not Found`))
    publisher.publish('/data/broken.csv', { body: csv.repeat(100), breakAfter: 100 })
    await expect(
      downloadFile(`${publisher.url}/data/broken.csv`, path, { userAgent: 'allmenning-test' }),
    ).rejects.toThrow(
      new RegExp(
        `^The download of ${publisher.url}/data/broken\\.csv (broke off after|ended after) \\d+ (bytes )?of ${csv.length * 100}`,
      ),
    )
    await expect(downloadFile('http://127.0.0.1:9/file.csv', path, { userAgent: 'allmenning-test' })).rejects.toThrow(
      new DownloadError('http://127.0.0.1:9/file.csv could not be reached: ECONNREFUSED'),
    )
    // Headers, then silence.
    const silent = await listen(
      createHttpServer((_request, response) => response.writeHead(200, { 'content-length': '1000' }).write('Org;')),
    )
    await expect(
      downloadFile(`${silent}/file.csv`, path, { userAgent: 'allmenning-test', idleTimeoutMs: 200 }),
    ).rejects.toThrow(
      `The download of ${silent}/file.csv broke off after 4 bytes of 1000: ${silent}/file.csv sent nothing for 0.2 s`,
    )
    expect(existsSync(path)).toBe(false)
    expect(existsSync(`${path}.part`)).toBe(false)
  })

  it('stops when its signal aborts', async () => {
    const slow = await listen(
      createHttpServer((_request, response) => response.writeHead(200, { 'content-length': '1000' }).write('Org;')),
    )
    const controller = new AbortController()
    const download = downloadFile(`${slow}/file.csv`, join(dir, 'aborted.csv'), {
      userAgent: 'allmenning-test',
      signal: controller.signal,
      onBytes: () => controller.abort(new Error('interrupted by the user')),
    })
    await expect(download).rejects.toThrow(/broke off after 4 bytes of 1000: interrupted by the user/)
  })

  it('survives a server that closes the connection after a body it sent faster than the file is written', async () => {
    // HTTP/1.0 servers and `Connection: close` end the connection after the body. When the body
    // arrived while this thread was busy, undici 7 (the client this replaced) threw an
    // uncatchable assertion on the connection's end and the process died.
    const body = Buffer.alloc(4 << 20, 0x61)
    const base = await listen(
      createTcpServer((socket) => {
        socket.once('data', () => {
          socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`)
          socket.write(body)
          socket.end()
        })
      }),
    )
    for (let i = 0; i < 10; i++) {
      let busy = false
      const result = await downloadFile(`${base}/big.bin`, join(dir, `big-${i}.bin`), {
        userAgent: 'allmenning-test',
        // The first bytes hold the thread for a moment, while the rest and the end arrive.
        onBytes: () => {
          if (busy) return
          busy = true
          const until = Date.now() + 100
          while (Date.now() < until) {
            // busy
          }
        },
      })
      expect(result).toMatchObject({ status: 'downloaded', bytes: body.length })
    }
  })
})
