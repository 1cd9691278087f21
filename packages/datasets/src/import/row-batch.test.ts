import { describe, expect, it } from 'vitest'
import type { DatasetValue } from '@allmenning/core/source'
import { createRowBatch, readRowBatch } from './row-batch.js'

const read = (buffer: ArrayBuffer, widths: number[]) => {
  const rows: Array<[number, DatasetValue[]]> = []
  const count = readRowBatch(buffer, widths, (table, values) => rows.push([table, values.slice(1)]))
  return { count, rows }
}

describe('a batch of rows in a transferable buffer', () => {
  it('gives back every value of every table as it was: text of any script, numbers, nulls', () => {
    const columns = [
      ['org', 'owner', 'shares', 'place'],
      ['id', 'amount'],
    ]
    const batch = createRowBatch(columns)
    const rows: Array<[number, Record<string, DatasetValue>]> = [
      [0, { org: '914778271', owner: 'Åse Ødegård', shares: 1_234_567_890_123, place: 'Tromsø' }],
      [1, { id: 'x', amount: -12.5 }],
      [0, { org: '', owner: 'Łukasz Żółć – €', shares: 0, place: null }],
      [0, { org: '1', owner: 'emoji 🦊 and 漢字', shares: Number.MAX_SAFE_INTEGER }],
      [1, { id: null, amount: null }],
    ]
    for (const [table, row] of rows) batch.add(table, row)
    expect(batch.rows).toBe(5)
    const { count, rows: back } = read(batch.take(), [4, 2])
    expect(count).toBe(5)
    expect(back).toEqual([
      [0, ['914778271', 'Åse Ødegård', 1_234_567_890_123, 'Tromsø']],
      [1, ['x', -12.5]],
      [0, ['', 'Łukasz Żółć – €', 0, null]],
      // A column the row leaves out is null.
      [0, ['1', 'emoji 🦊 and 漢字', Number.MAX_SAFE_INTEGER, null]],
      [1, [null, null]],
    ])
    expect(batch.rows).toBe(0)
  })

  it('grows when a row does not fit, and starts afresh in the buffer it is given', () => {
    const batch = createRowBatch([['text']], 4096)
    const long = 'ø'.repeat(10_000)
    batch.add(0, { text: 'first' })
    batch.add(0, { text: long })
    for (let i = 0; i < 100; i++) batch.add(0, { text: `row ${i}` })
    const grown = batch.take(new ArrayBuffer(4096))
    expect(grown.byteLength).toBeGreaterThan(4096)
    const { rows } = read(grown, [1])
    expect(rows.map(([, [text]]) => text)).toEqual([
      'first',
      long,
      ...Array.from({ length: 100 }, (_, i) => `row ${i}`),
    ])
    batch.add(0, { text: 'next' })
    expect(batch.fill).toBeGreaterThan(0)
    expect(read(batch.take(), [1]).rows).toEqual([[0, ['next']]])
  })

  it('says how full it is, so the reader hands it over before it must grow', () => {
    const batch = createRowBatch([['a', 'b']], 1 << 16)
    expect(batch.fill).toBe(0)
    while (batch.fill < 0.5) batch.add(0, { a: 'abcdefghij', b: 12 })
    const rows = batch.rows
    const buffer = batch.take()
    expect(buffer.byteLength).toBe(1 << 16)
    expect(read(buffer, [2]).count).toBe(rows)
  })
})
