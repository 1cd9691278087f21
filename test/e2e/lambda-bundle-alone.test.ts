// The Lambda example's bundle as it is deployed: one file in a folder with no node_modules
// anywhere above it, as in a function's /var/task. A dependency the bundle reaches at run time
// instead of carrying it (a require() the bundler cannot see) works in the repository, where
// node_modules is found up the tree, and fails only here.
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const folders: string[] = []
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

const event = (path: string) => ({
  version: '2.0',
  routeKey: '$default',
  rawPath: path,
  rawQueryString: '',
  headers: { host: 'abc.execute-api.eu-north-1.amazonaws.com' },
  requestContext: {
    accountId: '1', apiId: 'abc', domainName: 'abc.execute-api.eu-north-1.amazonaws.com', domainPrefix: 'abc', requestId: 'r', routeKey: '$default', stage: '$default', time: '', timeEpoch: 0,
    http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'test' },
  },
  isBase64Encoded: false,
})

describe('the Lambda example bundle, alone in a folder', () => {
  it('loads without node_modules and answers the API index and a source descriptor', () => {
    const built = mkdtempSync(join(tmpdir(), 'allmenning-lambda-build-'))
    const task = mkdtempSync(join(tmpdir(), 'allmenning-lambda-task-'))
    folders.push(built, task)
    execFileSync(process.execPath, [join(root, 'node_modules/tsup/dist/cli-default.js'), '--out-dir', built, '--no-sourcemap'], {
      cwd: join(root, 'examples/lambda'),
      stdio: 'pipe',
    })
    copyFileSync(join(built, 'handler.mjs'), join(task, 'handler.mjs'))
    // The events are built here and handed over as JSON, so the script only imports and calls.
    const run = `
      const { handler } = await import(${JSON.stringify(join(task, 'handler.mjs'))})
      const context = { awsRequestId: 'r', functionName: 'f', getRemainingTimeInMillis: () => 29000 }
      const statuses = []
      for (const e of ${JSON.stringify([event('/api/v1/'), event('/api/v1/kilder/lovdata')])}) statuses.push((await handler(e, context)).statusCode)
      console.log(JSON.stringify(statuses))
      process.exit(0)
    `
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', run], {
      cwd: task,
      env: { PATH: process.env.PATH ?? '', AWS_REGION: 'eu-north-1', AWS_LAMBDA_FUNCTION_NAME: 'allmenning-gateway' },
      encoding: 'utf8',
    })
    expect(JSON.parse(output.trim().split('\n').pop()!)).toEqual([200, 200])
  }, 180_000)
})
