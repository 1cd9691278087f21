// What one lookup by name costs against Avinor's real-size lists (about 2,000 airports), on
// the serving thread: lookup_airport and get_flights' airport check rank the whole list each
// time. Not part of `npm test`.
//
//   npm run bench:avinor-names
import { loadavg } from 'node:os'
import { matchNames } from '../../packages/sources/src/avinor/match-names.ts'

const places = [
  'Bergen',
  'Tromsø',
  'Ålesund',
  'Kristiansund',
  'Bodø',
  'Hammerfest',
  'Værnes',
  'Lakselv',
  'Røros',
  'Sørkjosen',
]
const airports = new Map()
for (let i = 0; i < 1948; i++) {
  const code = String.fromCharCode(65 + (i % 26), 65 + (Math.floor(i / 26) % 26), 65 + (Math.floor(i / 676) % 26))
  airports.set(code, `${places[i % places.length]} lufthavn ${Math.floor(i / places.length) || ''}`.trim())
}
const queries = ['bergen', 'BGO', 'tromso', 'lakselv lufthavn', 'oslo', 'ber']
for (const q of queries) matchNames(airports, q)

const rounds = 200
const times = []
for (let i = 0; i < rounds; i++) {
  const started = performance.now()
  matchNames(airports, queries[i % queries.length])
  times.push(performance.now() - started)
}
times.sort((a, b) => a - b)
console.log(
  `matchNames over ${airports.size} airport names, ${rounds} lookups, Node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
)
console.log(
  `| median ms | p99 ms |\n|---|---|\n| ${times[rounds / 2].toFixed(2)} | ${times[Math.floor(rounds * 0.99)].toFixed(2)} |`,
)
