// Writes an Aksjonærregisteret extract of N rows in the real format: UTF-8 with a byte-order
// mark, `;` without quoting, the nine columns of Skatteetaten's record description, and the
// quirks real files have (foreign addresses with unquoted `;`, literal unbalanced quotes, lone
// spaces for "no value", no-break-space thousands, duplicate rows). One company has a very
// large number of holders, as listed companies do; most have one to three.
// Usage: node bench/datasets/generate-aksjonaerregisteret.js <rows> <file>
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'

const firstNames = ['Ola', 'Kari', 'Per', 'Anne', 'Jens', 'Ingrid', 'Lars', 'Marit', 'Bjørn', 'Åse', 'Øystein', 'Sigrid', 'Håkon', 'Tone', 'Eirik', 'Liv', 'Nils', 'Berit', 'Knut', 'Hilde', 'Arne', 'Solveig', 'Terje', 'Randi', 'Geir', 'Astrid', 'Rune', 'Heidi', 'Trond', 'Wenche', 'Svein', 'Gro']
const middleNames = ['', '', '', 'JOHAN', 'MARIE', 'ANDRÉ', 'KRISTIN', 'ERIK', 'ELISABETH', 'MAGNUS', 'LOUISE', 'PETTER', 'SOFIE', 'ØRJAN', 'ÅSHILD', 'TORE']
const lastNames = ['Nordmann', 'Hansen', 'Johansen', 'Olsen', 'Larsen', 'Andersen', 'Pedersen', 'Nilsen', 'Kristiansen', 'Jensen', 'Ødegård', 'Bakke', 'Haugen', 'Berg', 'Dahl', 'Lie', 'Karlsen', 'Eriksen', 'Johnsen', 'Halvorsen', 'Jørgensen', 'Strand', 'Solberg', 'Moen', 'Næss', 'Hagen', 'Kristoffersen', 'Jakobsen', 'Lund', 'Sæther', 'Bråthen', 'Aas']
const places = ['0150 OSLO', '5003 BERGEN', '7010 TRONDHEIM', '9008 TROMSØ', '4006 STAVANGER', '8006 BODØ', '2317 HAMAR', '1532 MOSS']

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

export async function generateAksjonaerregisteret(rows, file) {
  const next = random(20241231)
  const out = createWriteStream(file)
  const write = async (text) => {
    if (!out.write(text)) await once(out, 'drain')
  }
  await write('\ufeffOrgnr;Selskap;Aksjeklasse;Navn aksjonær;Fødselsår/orgnr;Postnr/sted;Landkode;Antall aksjer;Antall aksjer selskap\r\n')
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
      companyName = `${lastNames[company % lastNames.length].toUpperCase()} ${['HOLDING', 'EIENDOM', 'INVEST', 'BYGG', 'CONSULT'][company % 5]} AS`
      holders = next() < 0.02 ? 50 + Math.floor(next() * 2000) : 1 + Math.floor(next() * 3)
    }
    holders--
    const person = next() < 0.72
    const shares = 1 + Math.floor(next() ** 3 * 2_000_000)
    const total = 10_000_000
    const klass = next() < 0.05 ? 'B-aksjer' : 'Ordinære aksjer'
    let line
    const quirk = next()
    if (quirk < 0.001 && previous) {
      // The register repeats a holding now and then; these rows are summed on import.
      line = previous
    } else if (quirk < 0.002) {
      line = `${companyNr};${companyName};${klass};PARIR AB; ;S-51, Tranemo; Sverige;SE;${shares};${total}`
    } else if (quirk < 0.003) {
      line = `${companyNr};${companyName};${klass};"IF P INSURANCE HOLDING LTD (PUBL; ;00100 HELSINKI;FI;${shares};${total}`
    } else if (person) {
      const middle = middleNames[Math.floor(next() * middleNames.length)]
      const name = `${lastNames[Math.floor(next() * lastNames.length)].toUpperCase()} ${firstNames[Math.floor(next() * firstNames.length)].toUpperCase()}${middle ? ` ${middle}` : ''}`
      const year = 1925 + Math.floor(next() * 85)
      const count = shares >= 1000 && quirk < 0.05 ? shares.toLocaleString('nb-NO') : String(shares)
      line = `${companyNr};${companyName};${klass};${name};${year};${places[Math.floor(next() * places.length)]};NO;${count};${total}`
    } else {
      const owner = Math.floor(next() * company) + 1
      line = `${companyNr};${companyName};${klass};${lastNames[owner % lastNames.length].toUpperCase()} INVEST AS;${orgNr(owner)};${places[owner % places.length]};NO;${shares};${total}`
    }
    await write(line + '\r\n')
    previous = line
    written++
  }
  out.end()
  await once(out, 'finish')
  return { rows: written, largest }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = Number(process.argv[2] ?? 1_000_000)
  const file = process.argv[3] ?? 'aksjonaerregisteret.csv'
  const { largest } = await generateAksjonaerregisteret(rows, file)
  console.log(`wrote ${rows} rows to ${file}; largest company ${largest}`)
}
