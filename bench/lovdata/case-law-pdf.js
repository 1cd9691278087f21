// Benchmarks reading a Supreme Court decision's text from its PDF (get_case_law with
// full_text=yes), which runs on the serving thread: PDF.js in Node parses on the calling
// thread. For decisions of 10, 40 and 100 pages of generated text (packages/sources/src/lovdata/
// testing/pdf-builder.ts: Helvetica, WinAnsi, the layout of domstol.no's PDFs), it prints the
// time to read the whole text and the longest the event loop went without a turn meanwhile,
// against the same figure for an idle loop measured in the same run.
// Not part of `npm test`. Usage: npm run bench:case-law-pdf (runs through tsx).
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { buildTextPdf } from '../../packages/sources/src/lovdata/testing/pdf-builder.ts'
import { pdfText } from '../../packages/sources/src/lovdata/pdf-text.ts'

const words = (
  'høyesterett lagmannsretten tingretten saken gjelder erstatning ankende part kommunen forvaltningsloven ' +
  '§ 35 første ledd bokstav c skjønnet vedtaket ugyldig «særlige grunner» etter min mening'
).split(' ')
let seed = 1
const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647
const paragraph = (n) =>
  `(${n}) ${Array.from({ length: 60 + Math.floor(random() * 80) }, () => words[Math.floor(random() * words.length)]).join(' ')}`

/** Runs `work` while a 1 ms timer notes the longest gap between turns of the event loop. */
async function longestPause(work) {
  let last = performance.now()
  let longest = 0
  const tick = () => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
  }
  const timer = setInterval(tick, 1)
  const started = performance.now()
  await work()
  const took = performance.now() - started
  tick()
  clearInterval(timer)
  return { took, longest }
}

console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
)
const idle = await longestPause(() => new Promise((resolve) => setTimeout(resolve, 300)))
console.log(`idle loop, 300 ms: longest pause ${idle.longest.toFixed(1)} ms`)
for (const count of [10, 40, 100]) {
  const pages = Array.from({ length: count }, (_, page) =>
    Array.from({ length: 6 }, (_, i) => paragraph(page * 6 + i + 1)),
  )
  const pdf = buildTextPdf(pages)
  await pdfText(pdf) // PDF.js loaded and warm
  const runs = []
  for (let run = 0; run < 5; run++) runs.push(await longestPause(() => pdfText(pdf)))
  const worst = (key) => Math.max(...runs.map((r) => r[key])).toFixed(1)
  const median = (key) =>
    runs
      .map((r) => r[key])
      .sort((a, b) => a - b)[2]
      .toFixed(1)
  console.log(
    `${String(count).padStart(3)} pages, ${(pdf.length / 1024).toFixed(0)} KiB: read in ${median('took')} ms (median of 5, worst ${worst('took')}); ` +
      `longest pause ${median('longest')} ms (worst ${worst('longest')}; idle loop ${idle.longest.toFixed(1)})`,
  )
}
