import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { DatasetFile, StreamContent, TabularContent } from '@allmenning/core/source'
import { fileParts } from './file-parts.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'allmenning-file-parts-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** A reader that starts late, as one does that first imports its parser, then takes every byte. */
const lateReader: StreamContent = {
  format: { type: 'stream' },
  async *records(input) {
    await sleep(50)
    let bytes = 0
    for await (const chunk of input) bytes += (chunk as Uint8Array).length
    yield bytes
  },
  rows: () => () => null,
}
const file: DatasetFile = { name: 'archive.bin', content: lateReader }

async function readAll(path: string, counter: { bytes: number }): Promise<unknown[]> {
  const records: unknown[] = []
  for await (const part of fileParts(file, path, counter))
    for await (const batch of part.batches) records.push(...batch)
  return records
}

describe('a stream-format file', () => {
  it('reaches a reader that starts late whole, and counts its bytes as they are read', async () => {
    const path = join(dir, 'archive.bin')
    // Sixteen of the 64 KiB reads: a file set flowing early would be mostly gone by the time the reader came.
    writeFileSync(path, Buffer.alloc(1024 * 1024, 7))
    const counter = { bytes: 0 }
    expect(await readAll(path, counter)).toEqual([1024 * 1024])
    expect(counter.bytes).toBe(1024 * 1024)
  })

  it('gives the reader the error of a file that cannot be read', async () => {
    const path = join(dir, 'a-directory')
    mkdirSync(path)
    await expect(readAll(path, { bytes: 0 })).rejects.toThrow(/EISDIR/)
  })
})

describe('a delimited file that cannot be read', () => {
  it('gives its reader the error, also when the read failed while the reader was loading its parser', async () => {
    const path = join(dir, 'a-directory.csv')
    mkdirSync(path)
    const quoted: DatasetFile = {
      name: 'Tildelinger.csv',
      content: {
        format: { type: 'delimited', delimiter: ';', quoting: 'rfc4180' },
        rows: () => () => [],
      } satisfies TabularContent,
    }
    const read = async () => {
      for await (const part of fileParts(quoted, path, { bytes: 0 })) for await (const _ of part.batches);
    }
    // The file's read fails at once; the reader first imports csv-parse, and then finds a stream
    // that has failed with no one listening. It ends with that error instead of waiting for ever.
    await expect(read()).rejects.toThrow(/EISDIR/)
  })
})
