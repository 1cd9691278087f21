import { describe, expect, it } from 'vitest'
import { createSnapshotClient } from '@allmenning/datasets'

async function settings(client: ReturnType<typeof createSnapshotClient>) {
  const endpoint = client.config.endpoint ? await client.config.endpoint() : undefined
  return {
    endpoint: endpoint
      ? `${endpoint.protocol}//${endpoint.hostname}${endpoint.port ? `:${endpoint.port}` : ''}`
      : undefined,
    region: await client.config.region(),
    forcePathStyle: client.config.forcePathStyle ?? false,
    request: await client.config.requestChecksumCalculation(),
    response: await client.config.responseChecksumValidation(),
  }
}

describe('createSnapshotClient', () => {
  it('reads a store other than AWS S3 from the environment, with checksums only where S3 requires them', async () => {
    const client = createSnapshotClient({
      env: { ALLMENNING_SNAPSHOT_ENDPOINT: 'http://127.0.0.1:9000', ALLMENNING_SNAPSHOT_PATH_STYLE: '1' },
    })
    expect(await settings(client)).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      request: 'WHEN_REQUIRED',
      response: 'WHEN_REQUIRED',
    })
  })

  it('takes options over the environment, and the region given (R2: auto)', async () => {
    const client = createSnapshotClient({
      endpoint: 'https://acct.r2.cloudflarestorage.com',
      region: 'auto',
      env: { ALLMENNING_SNAPSHOT_ENDPOINT: 'http://elsewhere:1' },
    })
    expect(await settings(client)).toMatchObject({
      endpoint: 'https://acct.r2.cloudflarestorage.com',
      region: 'auto',
      forcePathStyle: false,
    })
  })

  it("leaves checksums to the SDK's own variables when they are set", async () => {
    const client = createSnapshotClient({
      endpoint: 'http://127.0.0.1:9000',
      env: { AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_SUPPORTED', AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_SUPPORTED' },
    })
    const resolved = await settings(client)
    // Not set to WHEN_REQUIRED here: the SDK reads its variables from the process's environment itself.
    expect(resolved.request).toBe(process.env.AWS_REQUEST_CHECKSUM_CALCULATION ?? 'WHEN_SUPPORTED')
  })

  it('keeps the SDK defaults for AWS S3', async () => {
    const client = createSnapshotClient({ region: 'eu-north-1', env: {} })
    expect(await settings(client)).toEqual({
      endpoint: undefined,
      region: 'eu-north-1',
      forcePathStyle: false,
      request: 'WHEN_SUPPORTED',
      response: 'WHEN_SUPPORTED',
    })
  })
})
