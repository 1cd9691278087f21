// Writes an Aksjonærregisteret extract of N rows in the real format: UTF-8 with a byte-order
// mark, `;` without quoting, the nine columns of Skatteetaten's record description, and the
// quirks real files have (foreign addresses with unquoted `;`, literal unbalanced quotes, lone
// spaces for "no value", no-break-space thousands, duplicate rows). One company has a very
// large number of holders, as listed companies do; most have one to three.
//
// Names, addresses and numbers have the cardinality of the real register: a person is drawn
// from a pool of `owners` people (default 1.5 × rows: about 0.57 × rows distinct people in
// the file, as many as the register's 1.2 million holdings have owners), each with a name
// made of generated surnames, first and middle names (tens of millions of combinations), a
// birth year and a postcode of their own among 5,000 places. A short list of names would let
// a cache keyed by name stay small, which the real file does not.
// Usage: node bench/datasets/generate-aksjonaerregisteret.js <rows> <file> [owners]
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'

// About two surnames in five and one first name in eight have an æ, ø or å: most names in the
// register are plain ASCII, which the name key folds on a faster path.
const syllables = [
  'ber',
  'dal',
  'hau',
  'lie',
  'mo',
  'næ',
  'sen',
  'strø',
  'vik',
  'han',
  'ås',
  'kro',
  'tve',
  'rud',
  'hol',
  'gard',
  'bak',
  'lund',
  'fjel',
  'skog',
]
const firstSyllables = [
  'o',
  'ka',
  'pe',
  'an',
  'je',
  'in',
  'la',
  'ma',
  'bjø',
  'å',
  'e',
  'si',
  'hå',
  'to',
  'ei',
  'li',
  'ni',
  'be',
  'kn',
  'hi',
  'ar',
  'so',
  'te',
  'ra',
  'ge',
]
const firstEndings = [
  'la',
  'ri',
  'r',
  'ne',
  'ns',
  'grid',
  'rs',
  'rit',
  'rn',
  'se',
  'stein',
  'gne',
  'kon',
  'ne',
  'rik',
  'v',
]
const middleNames = [
  '',
  '',
  '',
  'JOHAN',
  'MARIE',
  'ANDRÉ',
  'KRISTIN',
  'ERIK',
  'ELISABETH',
  'MAGNUS',
  'LOUISE',
  'PETTER',
  'SOFIE',
  'ØRJAN',
  'ÅSHILD',
  'TORE',
]
/** 20³ = 8,000 surnames, 25 × 16 = 400 first names, 16 middle names: 51 million names. */
const surnameCount = syllables.length ** 3
const firstNameCount = firstSyllables.length * firstEndings.length
const towns = [
  'OSLO',
  'BERGEN',
  'TRONDHEIM',
  'TROMSØ',
  'STAVANGER',
  'BODØ',
  'HAMAR',
  'MOSS',
  'ÅLESUND',
  'SKIEN',
  'FØRDE',
  'ÅRDAL',
]

function surname(i) {
  const a = syllables[i % 20]
  const b = syllables[Math.floor(i / 20) % 20]
  const c = syllables[Math.floor(i / 400) % 20]
  const word = a + b + c
  return word[0].toUpperCase() + word.slice(1)
}

/** Person number `i` of the pool: a distinct name for every i below 51 million, its own year and place. */
function person(i) {
  const last = surname(i % surnameCount).toUpperCase()
  const f = Math.floor(i / surnameCount) % firstNameCount
  const first = (
    firstSyllables[f % firstSyllables.length] + firstEndings[Math.floor(f / firstSyllables.length)]
  ).toUpperCase()
  const middle = middleNames[Math.floor(i / (surnameCount * firstNameCount)) % middleNames.length]
  return { name: `${last} ${first}${middle ? ` ${middle}` : ''}`, year: 1925 + ((i * 7919) % 85), place: place(i * 31) }
}

/** One of 5,000 postcodes and towns. */
function place(i) {
  const code = 1 + ((i * 7) % 5000) * 2
  return `${String(code).padStart(4, '0')} ${towns[code % towns.length]}`
}

/** MOD11 organisation numbers, deterministic from a counter. */
function orgNr(n) {
  const weights = [3, 2, 7, 6, 5, 4, 3, 2]
  for (let base = 80_000_000 + n * 7; ; base++) {
    const digits = String(base).padStart(8, '0')
    let sum = 0
    for (let i = 0; i < 8; i++) sum += Number(digits[i]) * weights[i]
    const rest = sum % 11
    if (rest === 1) continue
    return digits + (rest === 0 ? 0 : 11 - rest)
  }
}

/** Deterministic pseudo-random numbers, so two runs write the same file. */
function random(seed) {
  let state = seed >>> 0
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

export async function generateAksjonaerregisteret(rows, file, owners = Math.round(rows * 1.5)) {
  const next = random(20241231)
  const people = new Set()
  const companyOwners = new Set()
  const out = createWriteStream(file)
  const write = async (text) => {
    if (!out.write(text)) await once(out, 'drain')
  }
  await write(
    '\ufeffOrgnr;Selskap;Aksjeklasse;Navn aksjonær;Fødselsår/orgnr;Postnr/sted;Landkode;Antall aksjer;Antall aksjer selskap\r\n',
  )
  const largest = orgNr(1)
  const largestHolders = Math.min(60_000, Math.floor(rows / 10))
  let written = 0
  let company = 1
  let holders = largestHolders
  let companyName = 'STORSELSKAP ASA'
  let companyNr = largest
  let previous = ''
  while (written < rows) {
    if (holders === 0) {
      company++
      companyNr = orgNr(company)
      companyName = `${surname(company % surnameCount).toUpperCase()} ${['HOLDING', 'EIENDOM', 'INVEST', 'BYGG', 'CONSULT'][company % 5]} AS`
      holders = next() < 0.02 ? 50 + Math.floor(next() * 2000) : 1 + Math.floor(next() * 3)
    }
    holders--
    const isPerson = next() < 0.72
    const shares = 1 + Math.floor(next() ** 3 * 2_000_000)
    const total = 10_000_000
    const klass = next() < 0.05 ? 'B-aksjer' : 'Ordinære aksjer'
    let line
    const quirk = next()
    if (quirk < 0.001 && previous) {
      // The register repeats a holding now and then; these rows are summed on import.
      line = previous
    } else if (quirk < 0.002) {
      line = `${companyNr};${companyName};${klass};VIMLE AB; ;S-41, Ljungby; Sverige;SE;${shares};${total}`
    } else if (quirk < 0.003) {
      line = `${companyNr};${companyName};${klass};"NORRSKEN MUTUAL HOLDING LTD (PUBL; ;00100 HELSINKI;FI;${shares};${total}`
    } else if (isPerson) {
      const drawn = Math.floor(next() * owners)
      const { name, year, place } = person(drawn)
      people.add(drawn)
      const count = shares >= 1000 && quirk < 0.05 ? shares.toLocaleString('nb-NO') : String(shares)
      line = `${companyNr};${companyName};${klass};${name};${year};${place};NO;${count};${total}`
    } else {
      const owner = Math.floor(next() * company) + 1
      companyOwners.add(owner)
      line = `${companyNr};${companyName};${klass};${surname(owner % surnameCount).toUpperCase()} INVEST AS;${orgNr(owner)};${place(owner)};NO;${shares};${total}`
    }
    await write(`${line}\r\n`)
    previous = line
    written++
  }
  out.end()
  await once(out, 'finish')
  return { rows: written, largest, people: people.size, owners: people.size + companyOwners.size }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = Number(process.argv[2] ?? 1_000_000)
  const file = process.argv[3] ?? 'aksjonaerregisteret.csv'
  const owners = process.argv[4] ? Number(process.argv[4]) : undefined
  const result = await generateAksjonaerregisteret(rows, file, owners)
  console.log(
    `wrote ${rows} rows to ${file}; largest company ${result.largest}; ${result.people} distinct people, ${result.owners} distinct owners`,
  )
}
