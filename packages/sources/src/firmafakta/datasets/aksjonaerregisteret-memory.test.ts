import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { datasetFileContent, type TabularContent } from '@allmenning/core/source'
import { aksjonaerregisteret } from './aksjonaerregisteret.js'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const header =
  'Orgnr;Selskap;Aksjeklasse;Navn aksjonær;Fødselsår/orgnr;Postnr/sted;Landkode;Antall aksjer;Antall aksjer selskap'.split(
    ';',
  )

describe('reading Aksjonærregisteret with as many owners as the real register', () => {
  it('keeps no memory per distinct owner name while it reads', async () => {
    const content = (await datasetFileContent(aksjonaerregisteret.files[0]!)) as TabularContent
    const toRows = content.rows({ file: 'aksjonaerregisteret.csv', origin: 'test', header })
    // A reader's cells are slices of the text it read: whatever keeps a cell keeps the line
    // (here 2 KB each), so a cache keyed by owner name grows with the number of distinct owners.
    const filler = 'SELSKAP '.repeat(256)
    gc()
    const before = process.memoryUsage().heapUsed
    let rows = 0
    for (let i = 0; i < 100_000; i++) {
      const line = `914778271;${filler}${i % 7} AS;Ordinære aksjer;ØDEGÅRD ÅSE NUMMER${i};${1930 + (i % 80)};0150 OSLO;NO;${i + 1};10000000`
      if (toRows(line.split(';'), i + 1)) rows++
    }
    gc()
    const retained = process.memoryUsage().heapUsed - before
    expect(rows).toBe(100_000)
    // 100,000 names read: far less than a kilobyte kept for each.
    expect(retained).toBeLessThan(16 * 1024 * 1024)
    expect(toRows(`914778271;X AS;A;NORDMANN OLA;1990;0150 OSLO;NO;1;10`.split(';'), 1)).toMatchObject({
      row: { eier_nokkel: 'nordmann|nordmann ola|1990' },
    })
  })
})
