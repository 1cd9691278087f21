import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const index = fileURLToPath(new URL('../index.ts', import.meta.url))
const readers = fileURLToPath(new URL('./delimited-records.ts', import.meta.url))

/** The parsers of the file formats, which a process serving datasets never needs. */
const parsers = ['read-excel-file', 'csv-parse', 'stream-json', 'yauzl']

// In a process of its own, whose module hook reports each module as it is loaded: the test
// runner's process may have loaded these for other tests.
function loadedModules(): Promise<{ imported: string[]; afterCsv: string[] }> {
  const hook = `data:text/javascript,${encodeURIComponent(
    "export async function load(url, context, next) { process._rawDebug('loaded ' + url); return next(url, context) }",
  )}`
  const script = `
    import { register } from 'node:module'
    import { Readable } from 'node:stream'
    register(${JSON.stringify(hook)})
    await import(${JSON.stringify(index)})
    process._rawDebug('imported')
    const { delimitedRecords } = await import(${JSON.stringify(readers)})
    const rows = []
    for await (const batch of delimitedRecords(Readable.from([Buffer.from('a;b\\n"1";"2"\\n')]), { type: 'delimited', delimiter: ';', quoting: 'rfc4180' })) rows.push(...batch)
    process._rawDebug('rows ' + JSON.stringify(rows))`
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--conditions=@allmenning/source', '--import', 'tsx', '--input-type=module', '-e', script],
      { timeout: 30_000 },
      (error, _stdout, stderr) => {
        if (error) return reject(error)
        const lines = stderr.split('\n')
        const at = lines.indexOf('imported')
        expect(lines.at(-2)).toBe('rows [["a","b"],["1","2"]]')
        const parsersIn = (part: string[]) => parsers.filter((name) => part.some((line) => line.includes(`/${name}/`)))
        resolve({ imported: parsersIn(lines.slice(0, at)), afterCsv: parsersIn(lines.slice(at)) })
      },
    )
  })
}

describe('the parsers of the file formats', () => {
  it('are loaded by the first file read, not when @allmenning/datasets is imported', async () => {
    const { imported, afterCsv } = await loadedModules()
    expect(imported).toEqual([])
    expect(afterCsv).toEqual(['csv-parse'])
  })
})
