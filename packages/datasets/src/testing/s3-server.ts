import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

/** A local S3 protocol server started by a test. */
export interface TestS3Server {
  /** `http://127.0.0.1:<port>`: give it as the client's endpoint, with path-style addressing. */
  endpoint: string
  /** A bucket that exists from the start. */
  bucket: string
  /**
   * The key the server knows; any other access key id is refused with 403 InvalidAccessKeyId.
   * (s3rver does not check SigV4 signatures, so a wrong secret with this key id is accepted.)
   */
  credentials: { accessKeyId: string; secretAccessKey: string }
  /** Where the server keeps the objects, for tests that tamper with them. */
  directory: string
  /** Stops the server gracefully and removes its objects. */
  close(): Promise<void>
  /** Kills the server process at once (SIGKILL), as a crashed store: open transfers break mid-way. */
  kill(): Promise<void>
}

/** Options of {@link startS3Server}. */
export interface TestS3ServerOptions {
  bucket?: string
}

const serverProcess = fileURLToPath(new URL('./s3-server-process.mjs', import.meta.url))

/**
 * Starts an S3 protocol server (the `s3rver` package, speaking the real S3 REST protocol with
 * signature checks) on 127.0.0.1 in a child process, with one empty bucket. The AWS SDK talks
 * to it with `forcePathStyle` and `requestChecksumCalculation: 'WHEN_REQUIRED'` (it does not
 * read the SDK's default aws-chunked checksum trailers), which `createSnapshotClient` sets when
 * an endpoint is given.
 *
 * @example
 * const s3 = await startS3Server()
 * const client = createSnapshotClient({ endpoint: s3.endpoint, forcePathStyle: true, credentials: s3.credentials })
 * await publishSnapshot({ storePath, location: parseSnapshotUrl(`s3://${s3.bucket}/prod`), client })
 * await s3.close()
 */
export async function startS3Server(options: TestS3ServerOptions = {}): Promise<TestS3Server> {
  const bucket = options.bucket ?? 'allmenning-snapshots'
  const directory = mkdtempSync(join(tmpdir(), 'allmenning-s3-'))
  const child = spawn(process.execPath, [serverProcess, directory, bucket], { stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.once('line', (line) => {
      lines.close()
      resolve((JSON.parse(line) as { port: number }).port)
    })
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`the S3 server exited with code ${code} before it listened`)))
  })
  const remove = () => rmSync(directory, { recursive: true, force: true })
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    directory,
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
      remove()
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
  }
}
