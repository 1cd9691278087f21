import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  beginMarker,
  compareFigures,
  endMarker,
  previousFigures,
  shouldWrite,
  writeRun,
  type Figure,
  type Run,
} from '../../bench/results-file.js'

// A results file of our own, shaped like bench/RESULTS.md: a title, hand-written history.
const history = [
  '# Benchmark results',
  '',
  'Recorded by hand on a quiet evening.',
  '',
  '| framework | ratio |',
  '|---|---|',
  '| Express 5 | 0.979 |',
  '',
  '## How to read it',
  '',
  'Compare ratios, not absolute req/s -- and look at the rounds.',
  '',
].join('\n')

const hit = (value: number): Figure => ({ name: 'Koa 3 hit ratio', value, unit: 'ratio', better: 'higher' })
const bundle = (value: number): Figure => ({ name: 'Lambda bundle bytes', value, unit: 'bytes', better: 'lower' })
const cpu = (value: number): Figure => ({
  name: 'MCP koa tools/call ÷ GET CPU per request',
  value,
  unit: 'ratio',
  better: 'lower',
})

const bareRoute = (value: number): Figure => ({
  name: 'Koa 3 bare route CPU µs per hit',
  value,
  unit: 'µs',
  better: 'lower',
  yardstick: true,
})

function run(figures: Figure[], table = '| route | ratio |\n|---|---|\n| search | 0.931 |'): Run {
  return {
    startedAt: new Date('2026-11-25T03:30:00Z'),
    machine: { cpu: 'Test CPU', cores: 2, memoryGiB: 7.75, node: 'v20.20.2', commit: 'abc1234', dirty: false },
    loadStart: '0.10 0.20 0.30',
    loadEnd: '0.40 0.50 0.60',
    settings: { rounds: 5, seconds: 6, connections: 32, placement: 'unpinned' },
    tables: [table],
    figures,
  }
}

describe('the generated block of the results file', () => {
  let folder: string
  let file: string
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'results-file-'))
    file = join(folder, 'RESULTS.md')
    writeFileSync(file, history)
  })
  afterEach(() => rmSync(folder, { recursive: true, force: true }))

  it('goes under the title on the first run, with the run facts and every table', () => {
    writeRun(file, run([hit(0.951), bundle(700_000)]))
    const text = readFileSync(file, 'utf8')
    expect(text.startsWith(`# Benchmark results\n\n${beginMarker}\n## Latest run (written by \`npm run bench\`)`)).toBe(
      true,
    )
    expect(text).toContain('- when: 2026-11-25 03:30 UTC')
    expect(text).toContain('- machine: 2 × Test CPU, 7.8 GiB memory')
    expect(text).toContain('- load average (1/5/15 min): 0.10 0.20 0.30 at start, 0.40 0.50 0.60 at end')
    expect(text).toContain('- Node v20.20.2; commit abc1234 (clean tree)')
    expect(text).toContain('- settings: 5 rounds × 6 s, 32 connections; unpinned')
    expect(text).toContain('| search | 0.931 |')
    expect(text).toContain('| Koa 3 hit ratio |  | 0.951 | new |  |')
    expect(text.endsWith(`${endMarker}\n${history.slice('# Benchmark results\n'.length)}`)).toBe(true)
  })

  it('is replaced, not duplicated, and the history outside it stays byte for byte', () => {
    writeRun(file, run([hit(0.951)], '| first table |'))
    writeRun(file, run([hit(0.96)], '| second table |'))
    const text = readFileSync(file, 'utf8')
    expect(text.split(beginMarker)).toHaveLength(2)
    expect(text.split(endMarker)).toHaveLength(2)
    expect(text).not.toContain('| first table |')
    expect(text).toContain('| second table |')
    const outside = text.slice(0, text.indexOf(beginMarker)) + text.slice(text.indexOf(endMarker) + endMarker.length)
    expect(outside).toBe(`# Benchmark results\n\n\n${history.slice('# Benchmark results\n'.length)}`)
  })

  it('keeps the figures in the block itself and compares the next run with them', () => {
    writeRun(file, run([hit(0.951), bundle(700_000)]))
    expect(previousFigures(readFileSync(file, 'utf8'))).toEqual([hit(0.951), bundle(700_000)])
    writeRun(file, run([hit(0.9), bundle(720_000)]))
    const text = readFileSync(file, 'utf8')
    expect(text).toContain('| Koa 3 hit ratio | 0.951 | 0.900 | -0.051 | **SLIPPED** |')
    expect(text).toContain('| Lambda bundle bytes | 700000 | 720000 | +20000 (+2.9%) | **SLIPPED** |')
    expect(text).toContain('**2 figure(s) slipped past the noise:** Koa 3 hit ratio, Lambda bundle bytes.')
    expect(previousFigures(text)).toEqual([hit(0.9), bundle(720_000)])
  })

  it('survives a figure name carrying `--`, which would otherwise close the HTML comment', () => {
    const odd: Figure = { ...hit(0.9), name: 'a -- b --> c' }
    writeRun(file, run([odd]))
    expect(previousFigures(readFileSync(file, 'utf8'))).toEqual([odd])
  })

  it('leaves the old file whole when the write is interrupted, and no temporary file behind', () => {
    writeRun(file, run([hit(0.951)]))
    const before = readFileSync(file, 'utf8')
    const interrupted = (path: string, text: string) => {
      writeFileSync(path, text.slice(0, 40))
      throw new Error('interrupted')
    }
    expect(() => writeRun(file, run([hit(0.5)]), { write: interrupted })).toThrow('interrupted')
    expect(readFileSync(file, 'utf8')).toBe(before)
    expect(readdirSync(folder)).toEqual(['RESULTS.md'])
  })

  it('says when the machine was busy, and not when it was quiet', () => {
    writeRun(file, run([hit(0.9)]))
    expect(readFileSync(file, 'utf8')).not.toContain('busy machine')
    writeRun(file, { ...run([hit(0.9)]), loadEnd: '2.50 1.00 0.50' })
    expect(readFileSync(file, 'utf8')).toContain('- **busy machine**: the 1-minute load average passed the 2 cores')
  })

  it('says the machine was slower when a yardstick grew past the noise, and not otherwise', () => {
    writeRun(file, run([hit(0.95), bareRoute(17.1)]))
    writeRun(file, run([hit(0.93), bareRoute(19.9)]))
    expect(readFileSync(file, 'utf8')).not.toContain('slower machine')
    writeRun(file, run([hit(0.91), bareRoute(26.2)]))
    const text = readFileSync(file, 'utf8')
    expect(text).toContain('- **slower machine**: Koa 3 bare route CPU µs per hit 19.90 → 26.20.')
    expect(text).toContain('| Koa 3 bare route CPU µs per hit | 19.90 | 26.20 | +6.3 (+31.7%) | machine slower |')
    expect(previousFigures(text)).toEqual([hit(0.91), bareRoute(26.2)])
  })

  it('refuses a file with a begin marker and no end marker rather than eating the history', () => {
    writeFileSync(file, `${history}\n${beginMarker}\nhalf a block\n`)
    expect(() => writeRun(file, run([hit(0.9)]))).toThrow(/without/)
    expect(readFileSync(file, 'utf8')).toBe(`${history}\n${beginMarker}\nhalf a block\n`)
  })
})

describe('the comparison with the previous run', () => {
  it('flags a ratio that fell by more than 0.03, not one that fell by 0.02 or rose', () => {
    const [fell, wobbled, rose] = [
      compareFigures([hit(0.95)], [hit(0.91)]),
      compareFigures([hit(0.95)], [hit(0.93)]),
      compareFigures([hit(0.9)], [hit(0.99)]),
    ]
    expect(fell[0]).toMatchObject({ slipped: true, change: '-0.040', previous: 0.95 })
    expect(wobbled[0]?.slipped).toBe(false)
    expect(rose[0]).toMatchObject({ slipped: false, change: '+0.090' })
  })

  it('flags a lower-is-better ratio that rose by more than 0.03', () => {
    expect(compareFigures([cpu(1.2)], [cpu(1.3)])[0]?.slipped).toBe(true)
    expect(compareFigures([cpu(1.3)], [cpu(1.2)])[0]?.slipped).toBe(false)
  })

  it('flags a bundle that grew by more than 2%, not one that grew by 1% or shrank', () => {
    expect(compareFigures([bundle(1_000_000)], [bundle(1_021_000)])[0]?.slipped).toBe(true)
    expect(compareFigures([bundle(1_000_000)], [bundle(1_010_000)])[0]?.slipped).toBe(false)
    expect(compareFigures([bundle(1_000_000)], [bundle(600_000)])[0]).toMatchObject({
      slipped: false,
      change: '-400000 (-40.0%)',
    })
  })

  it('flags a cold start over bare that grew by more than 10% and 5 ms', () => {
    const cold = (value: number): Figure => ({
      name: 'Lambda cold start over bare, wall ms',
      value,
      unit: 'ms',
      better: 'lower',
    })
    expect(compareFigures([cold(60)], [cold(70)])[0]?.slipped).toBe(true)
    expect(compareFigures([cold(20)], [cold(24)])[0]?.slipped).toBe(false)
    expect(compareFigures([cold(60)], [cold(64)])[0]?.slipped).toBe(false)
  })

  it('never calls a yardstick slipped: it says the machine was slower instead', () => {
    const grown = compareFigures([bareRoute(17.1)], [bareRoute(26.2)])[0]
    expect(grown).toMatchObject({ slipped: false, slower: true, change: '+9.1 (+53.2%)' })
    // Within the noise of a CPU cost: 20% and 0.5 µs.
    expect(compareFigures([bareRoute(17.1)], [bareRoute(19.9)])[0]).toMatchObject({ slipped: false, slower: false })
    expect(compareFigures([bareRoute(26.2)], [bareRoute(17.1)])[0]).toMatchObject({ slipped: false, slower: false })
    // The same growth in a figure of the gateway's own is a slip.
    const piece = { ...bareRoute(17.1), name: 'piece: rate limit, CPU µs per hit', yardstick: undefined }
    expect(compareFigures([piece], [{ ...piece, value: 26.2 }])[0]).toMatchObject({ slipped: true })
  })

  it('calls a figure the previous run did not have new', () => {
    expect(compareFigures([hit(0.9)], [bundle(1)])[0]).toMatchObject({
      change: 'new',
      slipped: false,
      previous: undefined,
    })
    expect(compareFigures(undefined, [hit(0.9)])[0]?.change).toBe('new')
  })
})

describe('whether the bench writes', () => {
  it('writes by default, not with BENCH_WRITE=0 or --no-write', () => {
    expect(shouldWrite(['node', 'bench/run.js'], {})).toBe(true)
    expect(shouldWrite(['node', 'bench/run.js'], { BENCH_WRITE: '0' })).toBe(false)
    expect(shouldWrite(['node', 'bench/run.js', '--no-write'], {})).toBe(false)
  })
})
