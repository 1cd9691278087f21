import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '@allmenning/core'
import { createSqliteDatasetStore } from '@allmenning/datasets'
import { lovdata } from '@allmenning/sources'
import { buildLovdataArchive } from '../../packages/sources/src/lovdata/testing/archive-builder.js'
import { startFakeLovdata, type FakeLovdata } from '../../packages/sources/src/lovdata/testing/fake-lovdata.js'
import { lawFixtures } from '../../packages/sources/src/lovdata/testing/fixtures.js'
import { amendmentLaw } from '../../packages/sources/src/lovdata/testing/fixtures.js'

// `npx allmenning datasets sync lovdata_…` as a user runs it, against a local Lovdata.
const cli = join('packages', 'datasets', 'src', 'cli', 'allmenning.ts')
const catalog = join('packages', 'sources', 'src', 'lovdata', 'testing', 'published-rule-datasets.ts')

let dir: string
let fake: FakeLovdata

function datasets(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=@allmenning/source', '--import', 'tsx', cli, 'datasets', ...args, '--definitions', catalog],
      {
        env: { ...process.env, ALLMENNING_DATA_DIR: join(dir, 'data'), ALLMENNING_TEST_LOVDATA: fake.baseUrl },
        timeout: 60_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'allmenning-lovdata-cli-'))
  fake = await startFakeLovdata()
})
afterAll(async () => {
  await fake.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('allmenning datasets sync for Lovdata’s rules', () => {
  it('downloads and loads both archives, dated by /v1/publicData/list, and the gateway searches them', async () => {
    const laws = await datasets('sync', 'lovdata_lover')
    expect(laws.stderr).toContain('lovdata_lover: downloaded')
    expect(laws.code).toBe(0)
    expect(laws.stdout).toMatch(/lovdata_lover: loaded \d+ rows from 5 records/)
    const regulations = await datasets('sync', 'lovdata_forskrifter')
    expect(regulations.code).toBe(0)
    const store = createSqliteDatasetStore({ path: join(dir, 'data', 'allmenning.sqlite') })
    try {
      const gateway = createGateway({ sources: [lovdata()], datasets: store })
      const res = await gateway.handle({
        method: 'GET',
        path: '/api/v1/kilder/lovdata/search_rules',
        query: 'query=straffeloven',
        headers: {},
      })
      const json = JSON.parse(res.body!)
      expect(res.status).toBe(200)
      expect(json.data.hits[0].document_id).toBe('NL/lov/2005-05-20-28')
      expect(json.data.data_updated).toBe('2026-09-03')
    } finally {
      store.close()
    }
  })

  it('downloads nothing again while /v1/publicData/list gives the same date, and the new file once the date moves', async () => {
    // Lovdata sends no ETag or Last-Modified: the listing's lastModified is the only validator.
    const download = '/v1/publicData/get/gjeldende-lover.tar.bz2'
    const before = fake.hits(download)
    const again = await datasets('sync', 'lovdata_lover')
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('lovdata_lover: unchanged; nothing downloaded or loaded')
    expect(fake.hits(download)).toBe(before)

    fake.publish('gjeldende-lover.tar.bz2', {
      bytes: await buildLovdataArchive([...lawFixtures(), amendmentLaw()]),
      description: 'Gjeldende lover',
      lastModified: '2026-09-04T02:10:00Z',
    })
    const changed = await datasets('sync', 'lovdata_lover')
    expect(changed.code).toBe(0)
    expect(changed.stdout).toMatch(/lovdata_lover: loaded \d+ rows from 6 records/)
    expect(fake.hits(download)).toBe(before + 1)
    const store = createSqliteDatasetStore({ path: join(dir, 'data', 'allmenning.sqlite') })
    try {
      const gateway = createGateway({ sources: [lovdata()], datasets: store })
      expect(
        (
          await gateway.handle({
            method: 'GET',
            path: '/api/v1/kilder/lovdata/get_rule',
            query: 'document_id=LOV-2020-06-19-99',
            headers: {},
          })
        ).status,
      ).toBe(200)
      const res = await gateway.handle({
        method: 'GET',
        path: '/api/v1/kilder/lovdata/search_rules',
        query: 'query=straffeloven',
        headers: {},
      })
      expect(JSON.parse(res.body!).data.data_updated).toBe('2026-09-04')
    } finally {
      store.close()
    }
    expect((await datasets('sync', 'lovdata_lover')).stdout).toContain('unchanged')
    expect(fake.hits(download)).toBe(before + 1)
  })
})
