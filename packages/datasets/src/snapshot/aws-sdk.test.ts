import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const index = fileURLToPath(new URL('../index.ts', import.meta.url))

// In a process of its own: the test runner's may have loaded the SDK for other tests.
function sdkLoaded(code: string): Promise<string> {
  const script = `
    import { createRequire } from 'node:module'
    const require = createRequire(import.meta.url)
    const datasets = await import(${JSON.stringify(index)})
    const loaded = () => Object.keys(require.cache).some((path) => path.includes('@aws-sdk'))
    const before = loaded()
    ${code}
    console.log(JSON.stringify({ before, after: loaded() }))`
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--conditions=@allmenning/source', '--import', 'tsx', '--input-type=module', '-e', script],
      { timeout: 30_000 },
      (error, stdout) => (error ? reject(error) : resolve(stdout.trim())),
    )
  })
}

describe('the AWS SDK', () => {
  it('is loaded when a snapshot client is made, not when @allmenning/datasets is imported', async () => {
    expect(
      JSON.parse(await sdkLoaded("datasets.createSnapshotClient({ endpoint: 'http://127.0.0.1:9', env: {} })")),
    ).toEqual({ before: false, after: true })
  })
})
