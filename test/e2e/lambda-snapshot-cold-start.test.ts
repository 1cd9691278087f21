import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSnapshotClient, importDataset, parseSnapshotUrl, publishSnapshot } from '@allmenning/datasets'
import { aksjonaerregisteret } from '@allmenning/sources/firmafakta'
import { startS3Server, type TestS3Server } from '../../packages/datasets/src/testing/s3-server.js'
import {
  aksjonaerregisteret2024,
  fixtureCompany,
} from '../../packages/sources/src/firmafakta/testing/aksjonaerregisteret-fixtures.js'
import { bundleEntry, startBundled, type BundledProcess } from '../support/bundled-process.js'

let s3: TestS3Server
let dir: string
let lambda: BundledProcess | undefined

beforeAll(async () => {
  s3 = await startS3Server()
  dir = mkdtempSync(join(tmpdir(), 'allmenning-lambda-cold-'))
  writeFileSync(join(dir, 'aksjer.csv'), aksjonaerregisteret2024())
  const storePath = join(dir, 'publisher', 'allmenning.sqlite')
  await importDataset({
    path: storePath,
    dataset: aksjonaerregisteret,
    inputs: [{ file: 'aksjonaerregisteret.csv', path: join(dir, 'aksjer.csv'), url: null }],
    publishedAt: '2024-12-31',
  })
  const client = createSnapshotClient({
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: s3.credentials,
    env: {},
  })
  await publishSnapshot({ storePath, location: parseSnapshotUrl(`s3://${s3.bucket}/prod`), client })
}, 60_000)

afterAll(async () => {
  lambda?.child.kill('SIGTERM')
  if (lambda) await lambda.exited
  await s3.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('the Lambda example, following a snapshot', () => {
  it('answers a dataset operation on the first event of a cold start, from a snapshot fetched into an empty /tmp', async () => {
    const tmp = mkdtempSync(join(dir, 'tmp-'))
    const bundle = await bundleEntry('test/support/lambda-example-process.ts')
    lambda = await startBundled(bundle, {
      AWS_LAMBDA_FUNCTION_NAME: 'allmenning-gateway',
      AWS_REGION: 'eu-north-1',
      AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
      ALLMENNING_DATASETS_SNAPSHOT: `s3://${s3.bucket}/prod`,
      ALLMENNING_SNAPSHOT_ENDPOINT: s3.endpoint,
      ALLMENNING_SNAPSHOT_PATH_STYLE: 'true',
      // The stand-in for the function's empty /tmp.
      ALLMENNING_DATASETS_SNAPSHOT_DIR: join(tmp, 'allmenning-snapshot'),
    })
    const res = await fetch(
      `${lambda.baseUrl}/api/v1/kilder/firmafakta/aksjeeiere_for_selskap?org_nr=${fixtureCompany}`,
    )
    const body = (await res.json()) as {
      data?: { shareholders: unknown[] }
      _meta?: { datasets: Array<{ published_at: string }> }
    }
    expect(res.status, JSON.stringify(body)).toBe(200)
    expect(body.data?.shareholders).toHaveLength(6)
    expect(body._meta?.datasets[0]?.published_at).toBe('2024-12-31')
    expect(readdirSync(join(tmp, 'allmenning-snapshot')).filter((name) => name.endsWith('.sqlite'))).toHaveLength(1)
  }, 60_000)
})
