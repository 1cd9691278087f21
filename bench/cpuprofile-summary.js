// Summarises a V8 .cpuprofile (from `node --cpu-prof`): the functions with the most self
// time, and the most time including what they call. Given two profiles of the same load (as
// bench/hit-cpu.js writes them), it prints where the second spends more than the first,
// function by function. With `--per N`, times are µs per request for N requests served;
// with `--under TEXT`, only samples with a frame whose label contains TEXT on their stack.
// Usage: node bench/cpuprofile-summary.js FILE [OTHER] [--top 25] [--per N] [--under TEXT]
import { readFileSync } from 'node:fs'

const args = process.argv.slice(2)
const option = (name, fallback) => {
  const at = args.indexOf(name)
  return at === -1 ? fallback : args.splice(at, 2)[1]
}
const top = Number(option('--top', 25))
const per = Number(option('--per', 0))
const under = option('--under', undefined)
const idle = new Set(['(idle)', '(program)', '(garbage collector)'])

const label = (frame) => {
  const where = frame.url
    ? `${frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(packages|bench)\//, '$1/')}:${frame.lineNumber + 1}`
    : ''
  return `${frame.functionName || '(anonymous)'} ${where}`.trim()
}

/** Self and inclusive time per function label, in µs (or µs per request with --per). */
function summarise(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'))
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const stack = (id) => {
    const names = []
    for (let at = id; at !== undefined; at = parent.get(at)) names.push(label(byId.get(at).callFrame))
    return names
  }
  const time = new Map()
  // timeDeltas[i] is the time before sample i; the sample stands for the time until the next.
  profile.samples.forEach((id, i) => {
    time.set(id, (time.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0))
  })
  const self = new Map()
  const inclusive = new Map()
  let busy = 0
  for (const [id, us] of time) {
    const names = stack(id)
    if (under && !names.some((n) => n.includes(under))) continue
    const value = per ? us / per : us
    self.set(names[0], (self.get(names[0]) ?? 0) + value)
    if (!idle.has(names[0])) busy += value
    for (const n of new Set(names)) inclusive.set(n, (inclusive.get(n) ?? 0) + value)
  }
  return { self, inclusive, busy }
}

const unit = per ? 'µs per request' : 'µs'
const show = (value) => (per ? value.toFixed(3) : value.toFixed(0)).padStart(10)
const print = (title, map) => {
  console.log(`\n${title}`)
  for (const [name, value] of [...map]
    .filter(([n]) => !idle.has(n))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    console.log(`${show(value)}  ${name}`)
}

const [first, second] = args.map(summarise)
if (!second) {
  console.log(`busy: ${show(first.busy).trim()} ${unit}`)
  print(`self time, ${unit}`, first.self)
  print(`including callees, ${unit}`, first.inclusive)
} else {
  console.log(`busy: ${show(first.busy).trim()} → ${show(second.busy).trim()} ${unit}`)
  const diff = (a, b) =>
    new Map([...new Set([...a.keys(), ...b.keys()])].map((n) => [n, (b.get(n) ?? 0) - (a.get(n) ?? 0)]))
  print(`self time, second minus first, ${unit}`, diff(first.self, second.self))
  print(`including callees, second minus first, ${unit}`, diff(first.inclusive, second.inclusive))
}
