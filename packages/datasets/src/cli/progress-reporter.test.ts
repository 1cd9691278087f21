import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createProgressReporter } from './progress-reporter.js'

function capture() {
  const out = new PassThrough()
  let text = ''
  out.on('data', (chunk: Buffer) => (text += chunk.toString()))
  return { out, text: () => text }
}

const reading = {
  phase: 'reading' as const,
  file: 'a.csv',
  bytes: 48_100_000,
  totalBytes: 96_200_000,
  records: 500_000,
  rows: 499_000,
  malformed: 3,
  elapsedMs: 2000,
}

describe('the progress reporter', () => {
  it('redraws one line with a bar, bytes, rows and rate on a terminal', () => {
    const { out, text } = capture()
    const progress = createProgressReporter(out, true)
    progress.import('aksjonaerregisteret', reading)
    progress.done()
    expect(text()).toBe(
      '\r\x1b[Kaksjonaerregisteret: [############------------] 48.1 MB of 96.2 MB (50%), 499,000 rows, 249,500 rows/s, 3 malformed\n',
    )
  })

  it('shows an upload by the share of the file compressed and the bytes sent', () => {
    const { out, text } = capture()
    const progress = createProgressReporter(out, true)
    progress.upload('snapshot', 9_000_000, 30_000_000, 40_000_000)
    progress.done()
    expect(text()).toBe(
      '\r\x1b[Ksnapshot: uploading [##################------] 30.0 MB of 40.0 MB compressed (75%), 9.0 MB sent\n',
    )
  })

  it('gives the rate in rows, whatever a record holds', () => {
    const { out, text } = capture()
    const progress = createProgressReporter(out, false)
    // 300 documents of Lovdata's laws give 8,409 rows (their sections) in 5 s.
    progress.import('lovdata_lover', {
      ...reading,
      bytes: 2_004_883,
      totalBytes: 2_004_883,
      records: 300,
      rows: 8_409,
      malformed: 0,
      elapsedMs: 5000,
    })
    expect(text()).toBe('lovdata_lover: 2.0 MB of 2.0 MB (100%), 8,409 rows, 1,682 rows/s\n')
  })

  it("shows a derived dataset's run by items done of this run's, rate, time left and outcomes", () => {
    const { out, text } = capture()
    const progress = createProgressReporter(out, true)
    const p = { done: 1200, total: 5000, due: 43_100, counts: { placed: 1180, 'not found': 20, failed: 0 } }
    progress.derive('mattilsynet_adressepunkter', 'placing addresses', p, 120_000)
    progress.done()
    expect(text()).toBe(
      '\r\x1b[Kmattilsynet_adressepunkter: placing addresses [######------------------] 1,200 of 5,000 (24%), 10.0/s, about 6 min 20 s left; 1,180 placed, 20 not found\n',
    )
  })

  it('writes plain lines, no more often than asked, anywhere else', () => {
    const { out, text } = capture()
    const progress = createProgressReporter(out, false, 60_000)
    progress.import('aksjonaerregisteret', reading)
    progress.import('aksjonaerregisteret', { ...reading, rows: 600_000 })
    progress.download('tildelinger Tildelinger.csv', 512, 2048)
    progress.import('aksjonaerregisteret', { ...reading, phase: 'indexing' })
    expect(text()).toBe(
      'aksjonaerregisteret: 48.1 MB of 96.2 MB (50%), 499,000 rows, 249,500 rows/s, 3 malformed\n' +
        'aksjonaerregisteret: indexing (499,000 rows read, 3 malformed)\n',
    )
    expect(text()).not.toContain('\r')
  })
})
