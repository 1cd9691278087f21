// Writes a smilefjes file of N inspections in Mattilsynet's layout: UTF-8 with a byte-order
// mark, `;`-separated, the 25 columns of smilefjes-tilsyn.csv, `dato` as DDMMYYYY (a leading
// zero lost now and then, as a number loses it), total and theme grades 0–3 (themes also 4
// and 5), the four themes named in Bokmål and Nynorsk. About 2.7 inspections per establishment,
// in no order of date (the dataset finds each establishment's newest while streaming), a
// name with a quoted `"` now and then, one in ten without an organisation number. Also writes
// the placed-addresses file the geocoding step would write for every distinct address.
// Usage: node bench/datasets/generate-smilefjes.js <rows> <file> <points-file>
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const COLUMNS =
  'tilsynsobjektid;orgnummer;navn;adrlinje1;adrlinje2;postnr;poststed;tilsynid;sakref;status;dato;total_karakter;tilsynsbesoektype;tema1_no;tema1_nn;karakter1;tema2_no;tema2_nn;karakter2;tema3_no;tema3_nn;karakter3;tema4_no;tema4_nn;karakter4'
const THEMES = [
  ['Rutiner og ledelse', 'Rutinar og leiing'],
  ['Lokaler og utstyr', 'Lokale og utstyr'],
  ['Mat-håndtering og tilberedning', 'Mathandtering og tilbereiing'],
  ['Merking og sporbarhet', 'Merking og sporbarheit'],
]
// Towns with their share of establishments, postal codes, municipality and a box to place addresses in.
const TOWNS = [
  { name: 'OSLO', share: 0.15, codes: [150, 1295], kommune: '0301', lat: [59.88, 59.96], lon: [10.68, 10.85] },
  { name: 'BERGEN', share: 0.07, codes: [5003, 5260], kommune: '4601', lat: [60.33, 60.42], lon: [5.25, 5.4] },
  { name: 'TRONDHEIM', share: 0.06, codes: [7010, 7099], kommune: '5001', lat: [63.4, 63.44], lon: [10.35, 10.45] },
  { name: 'STAVANGER', share: 0.04, codes: [4005, 4099], kommune: '1103', lat: [58.94, 58.98], lon: [5.68, 5.76] },
  { name: 'TROMSØ', share: 0.03, codes: [9006, 9020], kommune: '5501', lat: [69.63, 69.68], lon: [18.9, 19.0] },
]
const OTHER_TOWNS = 600
const kinds = [
  'Kafé',
  'Restaurant',
  'Pizzeria',
  'Sushi',
  'Bakeri',
  'Kiosk',
  'Bistro',
  'Kebab',
  'Thai',
  'Burger',
  'Dagligvare',
  'Kantine',
  'Catering',
  'Bar',
]
const words = [
  'Nord',
  'Sol',
  'Fjord',
  'Bølgen',
  'Torget',
  'Hjørnet',
  'Bryggen',
  'Lykke',
  'Smak',
  'Kroa',
  'Perlen',
  'Gården',
  'Stua',
  'Fyret',
  'Ekspressen',
  'Løven',
  'Ørnen',
  'Måken',
]
const streets = [
  'Storgata',
  'Kirkegata',
  'Strandgata',
  'Torggata',
  'Parkveien',
  'Skolegata',
  'Havnegata',
  'Jernbanegata',
  'Dronningens gate',
  'Kongens gate',
  'Sjøgata',
  'Fjellveien',
  'Bakkegata',
  'Nygata',
  'Øvre gate',
]

let seed = 42
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
const pick = (list) => list[Math.floor(random() * list.length)]
const grade = () => {
  const r = random()
  return r < 0.45 ? 0 : r < 0.8 ? 1 : r < 0.95 ? 2 : 3
}
const cell = (text) => (/[;"]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text)

function town(i) {
  let r = ((i * 7919) % 10007) / 10007
  for (const t of TOWNS) {
    if (r < t.share) return t
    r -= t.share
  }
  const n = i % OTHER_TOWNS
  const code = 1300 + Math.floor((n * 8650) / OTHER_TOWNS)
  return {
    name: `STED${n}`,
    codes: [code, code + 9],
    kommune: String(3000 + n),
    lat: [58 + (n % 120) / 10, 58.05 + (n % 120) / 10],
    lon: [5 + (n % 25) / 2, 5.1 + (n % 25) / 2],
  }
}

function establishment(i) {
  const t = town(i)
  const name =
    random() < 0.01
      ? `${pick(kinds)} "${pick(words)}"`
      : `${pick(kinds)} ${pick(words)}${random() < 0.3 ? ` ${i % 97}` : ''}`
  const number = 1 + Math.floor(random() * 120)
  const letter = random() < 0.1 ? ` ${pick(['A', 'B', 'C'])}` : ''
  const postnr = String(t.codes[0] + Math.floor(random() * (t.codes[1] - t.codes[0] + 1))).padStart(4, '0')
  return {
    id: `Z${1600000000000000000n + BigInt(i) * 7919n}${String.fromCharCode(65 + (i % 26))}`,
    orgnr: random() < 0.1 ? '' : String(900000000 + ((i * 104729) % 99999999)),
    name,
    street: `${pick(streets)} ${number}${letter}`,
    postnr,
    town: t,
    line2: random() < 0.05 ? 'Inngang bakgården' : '',
  }
}

/** Writes the files; resolves to what was written. */
export async function generateSmilefjes(rows, file, pointsFile) {
  const count = Math.max(1, Math.round(rows / 2.7))
  const places = []
  const out = createWriteStream(file)
  out.write(Buffer.from([0xef, 0xbb, 0xbf]))
  out.write(`${COLUMNS}\n`)
  let bytes = 3 + COLUMNS.length + 1
  const start = Date.UTC(2016, 0, 1)
  const span = Date.UTC(2026, 10, 27) - start
  for (let r = 0; r < rows; r++) {
    const i = (r * 2654435761) % count // every establishment, in no order
    if (places[i] === undefined) places[i] = establishment(i)
    const e = places[i]
    const date = new Date(start + Math.floor(random() * span))
    let dato = `${String(date.getUTCDate()).padStart(2, '0')}${String(date.getUTCMonth() + 1).padStart(2, '0')}${date.getUTCFullYear()}`
    if (random() < 0.02) dato = dato.replace(/^0/, '')
    const themes = THEMES.map(([no, nn]) => `${no};${nn};${random() < 0.03 ? pick([4, 5]) : grade()}`)
    const line = `${[e.id, e.orgnr, cell(e.name), e.street, e.line2, e.postnr, e.town.name, `Z${2300000000000000000n + BigInt(r)}T`, String(2300000 + r), '0', dato, grade(), random() < 0.1 ? 1 : 0, ...themes].join(';')}\n`
    bytes += Buffer.byteLength(line)
    if (!out.write(line)) await once(out, 'drain')
  }
  out.end()
  await once(out, 'finish')

  const points = createWriteStream(pointsFile)
  points.write('adresse_key;status;lat;lon;kommunenummer;kommunenavn;adressetekst;checked_at\n')
  const seen = new Set()
  for (const e of places) {
    if (!e) continue
    const key = `${e.street.toLowerCase().replace(/(\d) ([a-z])$/, '$1$2')}|${e.postnr}`
    if (seen.has(key)) continue
    seen.add(key)
    const lat = e.town.lat[0] + random() * (e.town.lat[1] - e.town.lat[0])
    const lon = e.town.lon[0] + random() * (e.town.lon[1] - e.town.lon[0])
    if (
      !points.write(
        `${key};placed;${lat.toFixed(6)};${lon.toFixed(6)};${e.town.kommune};${e.town.name};${e.street};2026-11-27T04:00:00.000Z\n`,
      )
    )
      await once(points, 'drain')
  }
  points.end()
  await once(points, 'finish')
  return { rows, bytes, establishments: places.filter(Boolean).length, addresses: seen.size }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const [rows, file, pointsFile] = process.argv.slice(2)
  console.log(await generateSmilefjes(Number(rows), file, pointsFile))
}
