// The bench writes its own entry into bench/RESULTS.md: a generated block between two markers
// near the top, holding where and when it ran, every table it printed, and how its key
// figures moved since the block it replaces. Hand-written history outside the markers is kept
// byte for byte, so a slip shows up as a diff in review rather than depending on someone
// pasting tables by hand.
import { execFileSync } from 'node:child_process'
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { basename, dirname, join } from 'node:path'

export const beginMarker = '<!-- bench:run:begin -->'
export const endMarker = '<!-- bench:run:end -->'
const figuresPrefix = '<!-- bench:figures '

/**
 * How far a figure may move before the block flags it. Ratios are medians of rounds on a
 * shared VM that varies ±15% per round, so a few hundredths is noise; a bundle's size is
 * exact, so 2% growth is a real change; a cold-start difference of medians wobbles by a few ms.
 */
export const noise = {
  ratio: { absolute: 0.03, describe: 'a ratio moving the wrong way by more than 0.03' },
  bytes: { relative: 0.02, describe: 'a size growing by more than 2%' },
  ms: { relative: 0.1, absolute: 5, describe: 'a time growing by more than 10% and more than 5 ms' },
  us: {
    relative: 0.2,
    absolute: 0.5,
    describe: 'a CPU cost per request growing by more than 20% and more than 0.5 µs',
  },
}

/**
 * Collects the figures one run of the bench produces, for the regression guard.
 *
 * A figure recorded as a `yardstick` measures code that does not change between runs (a bare
 * framework route's CPU per hit): when it grows past the noise, the machine was slower, not the
 * gateway. This virtual machine has hours in which the same bare route costs half as much
 * again, with a load average that says nothing of it, and the gateway's ratios read lower in
 * them. The block says so rather than flag the yardstick as a slip.
 *
 * @example
 * const figures = createFigures()
 * figures.record('Express 5 hit ratio', 0.951, { unit: 'ratio', better: 'higher' })
 * figures.record('Koa 3 bare route CPU µs per hit', 19.4, { unit: 'µs', better: 'lower', yardstick: true })
 * figures.list() // [{ name: 'Express 5 hit ratio', value: 0.951, unit: 'ratio', better: 'higher' }]
 */
export function createFigures() {
  const list = []
  return {
    record(name, value, { unit, better, yardstick = false }) {
      if (!Number.isFinite(value)) throw new Error(`figure ${name} is not a finite number: ${value}`)
      list.push(yardstick ? { name, value, unit, better, yardstick } : { name, value, unit, better })
    },
    list: () => list.slice(),
  }
}

/** The machine, the toolchain and the checkout a run happened on; load average read now. */
export function describeMachine({ cwd = process.cwd() } = {}) {
  const cores = cpus()
  const git = (args) => {
    try {
      return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    } catch {
      return undefined
    }
  }
  const status = git(['status', '--porcelain', '--untracked-files=no'])
  return {
    cpu: cores[0]?.model?.trim() ?? 'unknown CPU',
    cores: cores.length,
    memoryGiB: totalmem() / 2 ** 30,
    node: process.version,
    commit: git(['rev-parse', '--short', 'HEAD']) ?? 'unknown',
    dirty: status === undefined ? undefined : status.length > 0,
  }
}

/** The 1, 5 and 15 minute load averages, as `cat /proc/loadavg` shows them. */
export const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')

/**
 * Compares this run's figures with the previous block's, by name.
 *
 * @example
 * compareFigures([{ name: 'Koa 3 hit ratio', value: 0.95, unit: 'ratio', better: 'higher' }],
 *   [{ name: 'Koa 3 hit ratio', value: 0.90, unit: 'ratio', better: 'higher' }])
 * // [{ name: 'Koa 3 hit ratio', previous: 0.95, value: 0.90, change: '-0.050', slipped: true, … }]
 *
 * A yardstick never slips: `slower` says instead that it grew past the noise.
 */
export function compareFigures(previous, current) {
  const before = new Map((previous ?? []).map((figure) => [figure.name, figure]))
  return current.map((figure) => {
    const old = before.get(figure.name)
    if (old === undefined) return { ...figure, previous: undefined, change: 'new', slipped: false }
    const delta = figure.value - old.value
    // Positive when the figure got worse.
    const worse = figure.better === 'higher' ? -delta : delta
    if (figure.unit === 'ratio') {
      return { ...figure, previous: old.value, change: signed(delta, 3), slipped: worse > noise.ratio.absolute }
    }
    const relative = old.value === 0 ? 0 : worse / Math.abs(old.value)
    const percent = old.value === 0 ? '' : ` (${signed((delta / Math.abs(old.value)) * 100, 1)}%)`
    const past =
      figure.unit === 'bytes'
        ? relative > noise.bytes.relative
        : figure.unit === 'µs'
          ? relative > noise.us.relative && worse > noise.us.absolute
          : relative > noise.ms.relative && worse > noise.ms.absolute
    return {
      ...figure,
      previous: old.value,
      change: `${signed(delta, figure.unit === 'bytes' ? 0 : 1)}${percent}`,
      slipped: past && !figure.yardstick,
      ...(figure.yardstick ? { slower: past } : {}),
    }
  })
}

function signed(value, digits) {
  const text = value.toFixed(digits)
  return value > 0 && Number(text) !== 0 ? `+${text}` : text
}

function show(value, unit) {
  if (value === undefined) return ''
  if (unit === 'ratio') return value.toFixed(3)
  if (unit === 'bytes') return String(Math.round(value))
  if (unit === 'µs') return value.toFixed(2)
  return value.toFixed(1)
}

/** The figures a generated block carries in its comment, or undefined when there is none. */
export function previousFigures(text) {
  const block = findBlock(text)
  if (block === undefined) return undefined
  const inner = text.slice(block.start, block.end)
  const at = inner.indexOf(figuresPrefix)
  if (at < 0) return undefined
  const close = inner.indexOf(' -->', at)
  try {
    return JSON.parse(inner.slice(at + figuresPrefix.length, close))
  } catch {
    return undefined
  }
}

/**
 * The generated block as Markdown, markers included.
 *
 * @param run `{ startedAt: Date, machine, loadStart, loadEnd, settings: { rounds, freshProcesses?, seconds, slices?, connections, placement }, tables: string[], figures, previous }`
 */
export function renderBlock({ startedAt, machine, loadStart, loadEnd, settings, tables, figures, previous }) {
  const compared = compareFigures(previous, figures)
  const slipped = compared.filter((row) => row.slipped)
  const slower = compared.filter((row) => row.slower)
  const dirty = machine.dirty === undefined ? '' : machine.dirty ? ' (with uncommitted changes)' : ' (clean tree)'
  const lines = [
    beginMarker,
    '## Latest run (written by `npm run bench`)',
    '',
    'Generated by the bench itself; the next run replaces everything between the markers. Do not edit by hand.',
    '',
    `- when: ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    `- machine: ${machine.cores} × ${machine.cpu}, ${machine.memoryGiB.toFixed(1)} GiB memory`,
    `- load average (1/5/15 min): ${loadStart} at start, ${loadEnd} at end`,
    `- Node ${machine.node}; commit ${machine.commit}${dirty}`,
    ...(busy(machine.cores, loadStart, loadEnd)
      ? [
          `- **busy machine**: the 1-minute load average passed the ${machine.cores} cores, so these figures and any flag below are noise-prone; re-run on a quiet machine before reading a slip into them`,
        ]
      : []),
    ...(slower.length > 0
      ? [
          `- **slower machine**: ${slower.map((row) => `${row.name} ${show(row.previous, row.unit)} → ${show(row.value, row.unit)}`).join('; ')}. The same code cost more CPU than in the previous run, so the machine was slower (a load average does not show it); ratios read lower in such hours, so re-run before reading a slip into them`,
        ]
      : []),
    `- settings: ${settings.rounds} rounds${settings.freshProcesses ? ' (each with fresh processes)' : ''} × ${settings.seconds} s${settings.slices ? ` in ${settings.slices} slices` : ''}, ${settings.connections} connections${settings.placement ? `; ${settings.placement}` : ''}`,
    '',
    `### Against the previous generated run`,
    '',
    `Flagged: ${noise.ratio.describe}, ${noise.bytes.describe}, ${noise.ms.describe}, ${noise.us.describe}; a yardstick (code that did not change) growing as much is the machine slowing, not a slip.` +
      (previous === undefined ? ' No previous generated run: every figure is new.' : ''),
    '',
    '| figure | previous | now | change | flag |',
    '|---|---|---|---|---|',
    ...compared.map(
      (row) =>
        `| ${row.name} | ${show(row.previous, row.unit)} | ${show(row.value, row.unit)} | ${row.change} | ${row.slipped ? '**SLIPPED**' : row.slower ? 'machine slower' : ''} |`,
    ),
    '',
    slipped.length === 0
      ? 'No figure moved past the noise.'
      : `**${slipped.length} figure(s) slipped past the noise:** ${slipped.map((row) => row.name).join(', ')}.`,
    '',
    '### Tables',
    ...tables.map((table) => table.replace(/\s+$/, '')),
    '',
    // `--` cannot appear inside an HTML comment; JSON strings may carry it escaped instead.
    `${figuresPrefix}${JSON.stringify(figures).replaceAll('--', '-\\u002d')} -->`,
    endMarker,
  ]
  return lines.join('\n')
}

// Other work on the machine moves req/s far more than any change to the gateway does.
function busy(cores, ...loads) {
  return loads.some((load) => Number.parseFloat(load) > cores)
}

function findBlock(text) {
  const start = text.indexOf(beginMarker)
  if (start < 0) return undefined
  const endAt = text.indexOf(endMarker, start)
  if (endAt < 0)
    throw new Error(`${beginMarker} without ${endMarker}: fix bench/RESULTS.md by hand before the bench writes to it`)
  return { start, end: endAt + endMarker.length }
}

/**
 * The file's text with the generated block replaced, or inserted under the first `# ` heading
 * when there is none yet. Everything else is left exactly as it was.
 */
export function replaceBlock(text, block) {
  const found = findBlock(text)
  if (found !== undefined) return text.slice(0, found.start) + block + text.slice(found.end)
  const heading = /^# .*\n/m.exec(text)
  const at = heading === null ? 0 : heading.index + heading[0].length
  return `${text.slice(0, at)}\n${block}\n${text.slice(at)}`
}

/**
 * Writes the file through a temporary sibling and a rename, so an interrupted write leaves the
 * old file whole. `write` is replaceable so tests can interrupt it.
 */
export function writeAtomically(file, text, { write = writeFileSync } = {}) {
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`)
  try {
    write(temporary, text)
    renameSync(temporary, file)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
}

/**
 * Replaces the generated block of a results file with this run's, compared with the block it
 * replaces. Returns the block written.
 *
 * @example
 * writeRun('bench/RESULTS.md', { startedAt, machine: describeMachine(), loadStart, loadEnd: loadAverage(), settings, tables, figures: figures.list() })
 */
export function writeRun(file, run, options) {
  const text = readFileSync(file, 'utf8')
  const block = renderBlock({ ...run, previous: previousFigures(text) })
  writeAtomically(file, replaceBlock(text, block), options)
  return block
}

/** Whether this run should write RESULTS.md: yes unless `BENCH_WRITE=0` or `--no-write`. */
export const shouldWrite = (argv = process.argv, env = process.env) =>
  env.BENCH_WRITE !== '0' && !argv.includes('--no-write')
