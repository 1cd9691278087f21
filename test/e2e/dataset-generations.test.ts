import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../examples/express-server/src/app.js'
import {
  aksjonaerregisteret2021Cp1252,
  aksjonaerregisteret2024,
  fixtureCompany,
} from '../../packages/sources/src/firmafakta/testing/aksjonaerregisteret-fixtures.js'

// The command line in a process of its own, as an operator runs it beside a serving gateway.
const cli = join('packages', 'datasets', 'src', 'cli', 'allmenning.ts')

let dir: string
let server: Server
let base: string

function importYear(file: string, published: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        '--conditions=@allmenning/source',
        '--import',
        'tsx',
        cli,
        'datasets',
        'import',
        'aksjonaerregisteret',
        join(dir, file),
        '--published',
        published,
      ],
      { env: { ...process.env, ALLMENNING_DATA_DIR: join(dir, 'data') }, timeout: 60_000 },
      (error, _stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr }),
    )
  })
}

type Holders = { data: { shareholders: Array<{ navn: string }> }; _meta: { datasets: Array<{ published_at: string }> } }

async function shareholders(headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/api/v1/kilder/firmafakta/aksjeeiere_for_selskap?org_nr=${fixtureCompany}`, {
    headers,
  })
  return {
    status: res.status,
    headers: res.headers,
    json: res.status === 200 ? ((await res.json()) as Holders) : undefined,
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'allmenning-generations-'))
  writeFileSync(join(dir, 'aksjer-2021.csv'), aksjonaerregisteret2021Cp1252())
  writeFileSync(join(dir, 'aksjer-2024.csv'), aksjonaerregisteret2024())
  const first = await importYear('aksjer-2021.csv', '2021-12-31')
  expect(first.code, first.stderr).toBe(0)
  server = createServer(createApp({ ALLMENNING_DATA_DIR: join(dir, 'data') }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}, 90_000)

afterAll(async () => {
  server?.closeAllConnections()
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  rmSync(dir, { recursive: true, force: true })
})

describe('a serving gateway, when another process loads a new year of Aksjonærregisteret', () => {
  it('answers a URL it has cached from the new year at once, and not 304 to the old ETag', async () => {
    const before = await shareholders()
    expect(before.status).toBe(200)
    expect(before.json!._meta.datasets[0]!.published_at).toBe('2021-12-31')
    expect(before.json!.data.shareholders).toHaveLength(2)
    const etag = before.headers.get('etag')!
    // Cached, and still fresh for an hour.
    const cached = await shareholders({ 'if-none-match': etag })
    expect(cached.status).toBe(304)
    expect(cached.headers.get('cache-status')).toMatch(/; hit;/)

    const second = await importYear('aksjer-2024.csv', '2024-12-31')
    expect(second.code, second.stderr).toBe(0)

    const after = await shareholders()
    expect(after.status).toBe(200)
    expect(after.json!._meta.datasets[0]!.published_at).toBe('2024-12-31')
    expect(after.json!.data.shareholders).toHaveLength(6)
    expect(after.headers.get('etag')).not.toBe(etag)
    const revalidated = await shareholders({ 'if-none-match': etag })
    expect(revalidated.status).toBe(200)
    expect(revalidated.json!._meta.datasets[0]!.published_at).toBe('2024-12-31')
  }, 90_000)
})
