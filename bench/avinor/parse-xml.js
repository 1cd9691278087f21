// What reading Avinor's XML costs on the serving thread: a flight feed of each typical size up
// to the 4 MiB accepted from Avinor, and a real-size airport-name list, each through the path
// the feed client takes. Reports the median time of a whole parse and the longest the event
// loop was held at once (the worst turn of a timer ticking every millisecond during the parse).
// Not part of `npm test`.
//
//   npm run bench:avinor-xml
import { loadavg } from 'node:os'
import { readFileSync } from 'node:fs'
import { parseFlightsInSlices } from '../../packages/sources/src/avinor/parse-flights-in-slices.ts'
import { parseAirportNamesInSlices } from '../../packages/sources/src/avinor/parse-name-lists-in-slices.ts'

const osl = readFileSync(
  new URL('../../packages/sources/src/avinor/testing/fixtures/xmlfeed-osl.xml', import.meta.url),
  'latin1',
)

/** The OSL fixture with its flights repeated until the document is about `chars` long. */
function feedOf(chars) {
  const start = osl.search(/<flight[\s>]/)
  const end = osl.lastIndexOf('</flight>') + '</flight>'.length
  const one = osl.slice(start, end)
  let flights = ''
  while (flights.length < chars) flights += one
  return osl.slice(0, start) + flights + osl.slice(end)
}

function airportNamesOf(count) {
  let items = ''
  for (let i = 0; i < count; i++) {
    const code = String.fromCharCode(65 + (i % 26), 65 + (Math.floor(i / 26) % 26), 65 + (Math.floor(i / 676) % 26))
    items += `<airportName code="${code}" name="Lufthavn nr. ${i} &amp; omegn"/>\n`
  }
  return `<?xml version="1.0" encoding="ISO-8859-1"?>\n<airportNames xmlns="http://www.avinor.no/xmlfeed/airportnames/v1.0">\n${items}</airportNames>\n`
}

/** Median ms of `rounds` parses, and the longest gap between two ticks of a 1 ms timer. */
async function measure(parse, body, rounds) {
  for (let i = 0; i < 3; i++) await parse(body)
  const times = []
  let worst = 0
  for (let i = 0; i < rounds; i++) {
    let last = performance.now()
    const timer = setInterval(() => {
      const t = performance.now()
      worst = Math.max(worst, t - last)
      last = t
    }, 1)
    const started = performance.now()
    await parse(body)
    times.push(performance.now() - started)
    worst = Math.max(worst, performance.now() - last)
    clearInterval(timer)
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
  times.sort((a, b) => a - b)
  return { median: times[Math.floor(rounds / 2)], worst }
}

const cases = [
  ['flight feed, 6 KB (a small airport)', parseFlightsInSlices, osl, 200],
  ['flight feed, 40 KB', parseFlightsInSlices, feedOf(40_000), 200],
  ['flight feed, 400 KB (a busy airport)', parseFlightsInSlices, feedOf(400_000), 40],
  ['flight feed, 4 MiB (the body limit)', parseFlightsInSlices, feedOf(4 * 1024 * 1024 - 2000), 8],
  ['airport names, 1,948 (real size)', parseAirportNamesInSlices, airportNamesOf(1948), 100],
]
console.log(
  `Avinor XML on the serving thread, Node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
)
console.log('| document | chars | median ms | longest hold ms |\n|---|---|---|---|')
for (const [name, parse, body, rounds] of cases) {
  const { median, worst } = await measure(parse, body, rounds)
  console.log(`| ${name} | ${body.length.toLocaleString('en-US')} | ${median.toFixed(2)} | ${worst.toFixed(1)} |`)
}
