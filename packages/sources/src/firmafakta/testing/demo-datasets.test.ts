import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { aksjonaerregisteret2024 } from './aksjonaerregisteret-fixtures.js'
import { rollerTotalbestand } from './brreg-roller-fixtures.js'
import { h2020Zip, horizonZip } from './cordis-fixtures.js'
import {
  DEMO_SHAREHOLDER_LINES,
  demoFilePath,
  firmafaktaDemoDatasetDir,
  firmafaktaDemoDatasetFiles,
  firmafaktaDemoDatasets,
} from './demo-datasets.js'
import { soknaderCsv } from './forskningsradet-fixtures.js'
import { tildelingerCsv } from './innovasjon-norge-fixtures.js'
import { skattefunnHistorical, skattefunnRolling } from './skattefunn-fixtures.js'

// The kept files are rebuilt from the builders with ALLMENNING_WRITE_DEMO_FIXTURES=1 when those change.
const rewrite = process.env.ALLMENNING_WRITE_DEMO_FIXTURES === '1'

/** What each kept file is built from, and how two builds are compared: zips and gzip carry times, so by content. */
const builders: Record<string, { build: () => Uint8Array; compare: 'bytes' | 'gzip' | 'zip' }> = {
  'aksjonaerregisteret/aksjonaerregisteret.csv': {
    build: () =>
      Buffer.concat([aksjonaerregisteret2024(), Buffer.from(`${DEMO_SHAREHOLDER_LINES.join('\r\n')}\r\n`, 'utf8')]),
    compare: 'bytes',
  },
  'innovasjon_norge_tildelinger/Tildelinger.csv': { build: tildelingerCsv, compare: 'bytes' },
  'cordis/cordis-HORIZONprojects-csv.zip': { build: horizonZip, compare: 'zip' },
  'cordis/cordis-h2020projects-csv.zip': { build: h2020Zip, compare: 'zip' },
  'forskningsradet_soknader/dataset.csv': { build: soknaderCsv, compare: 'bytes' },
  'skattefunn/skattefunn-innsendte-soknader-2002-2024.xlsx': { build: skattefunnHistorical, compare: 'zip' },
  'skattefunn/skattefunn-innsendte-soknader-per-januar-2026.xlsx': { build: skattefunnRolling, compare: 'zip' },
  'brreg_roller/roller-totalbestand.json.gz': { build: rollerTotalbestand, compare: 'gzip' },
}

const content = (bytes: Uint8Array, compare: 'bytes' | 'gzip' | 'zip') =>
  compare === 'zip'
    ? Object.fromEntries(
        Object.entries(unzipSync(bytes)).map(([name, member]) => [name, Buffer.from(member).toString('base64')]),
      )
    : Buffer.from(compare === 'gzip' ? gunzipSync(bytes) : bytes).toString('base64')

describe('the firmafakta demo datasets', () => {
  const kept = firmafaktaDemoDatasets.flatMap(({ dataset, files }) =>
    files.map((file) => demoFilePath(dataset.id, file)),
  )

  it('keep a file for every part of every dataset, each built from the fixtures', () => {
    expect(kept.sort()).toEqual(Object.keys(builders).sort())
  })

  for (const [path, { build, compare }] of Object.entries(builders)) {
    it(`${path} is what the fixtures build`, () => {
      const built = build()
      const target = new URL(path, firmafaktaDemoDatasetDir)
      if (rewrite) {
        mkdirSync(new URL('.', target), { recursive: true })
        writeFileSync(target, built)
      }
      expect(content(readFileSync(target), compare)).toEqual(content(built, compare))
    })
  }

  it('dates the daily datasets today and reads every file', () => {
    const loads = firmafaktaDemoDatasetFiles('2026-11-28')
    expect(Object.fromEntries(loads.map((load) => [load.dataset.id, load.publishedAt]))).toMatchObject({
      brreg_roller: '2026-11-28',
      innovasjon_norge_tildelinger: '2026-11-28',
      aksjonaerregisteret: '2024-12-31',
    })
    for (const load of loads) for (const file of load.files) expect(file.bytes.length).toBeGreaterThan(0)
  })
})
