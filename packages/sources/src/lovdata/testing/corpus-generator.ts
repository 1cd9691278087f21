import { spawn } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import tarStream from 'tar-stream'
import type { ArchiveFile } from '../archive-reader.js'
import { bzip2 } from './archive-builder.js'
import { chapterXml, listXml, lovdataDocumentXml, sectionXml, type SectionSpec } from './lovdata-markup.js'

/** Settings of the generated corpus. */
export interface CorpusOptions {
  /** Number of laws; 738 by default, as in the real `gjeldende-lover.tar.bz2`. */
  laws?: number
  /** Number of central regulations; 3 427 by default. */
  regulations?: number
  /** Seed of the generator: the same seed gives the same corpus. */
  seed?: number
}

/** Deterministic pseudo-random numbers (mulberry32), so a benchmark can be repeated exactly. */
function createRandom(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T
  return { next, int, pick }
}

/** Cumulative Zipf weights (1/rank) over `count` ranks, for drawing ranked words. */
function zipfTable(count: number): number[] {
  const table: number[] = []
  let sum = 0
  for (let rank = 1; rank <= count; rank++) table.push((sum += 1 / rank))
  return table.map((value) => value / sum)
}

/** One word of running text: a ranked word by Zipf's law, one time in twelve a rare compound. */
function word(random: ReturnType<typeof createRandom>): string {
  if (random.next() < 1 / 12) return `${random.pick(STEMS)}${random.pick(ENDINGS)}`
  const u = random.next()
  let low = 0
  let high = WORD_TABLE.length - 1
  while (low < high) {
    const mid = (low + high) >> 1
    if ((WORD_TABLE[mid] as number) < u) low = mid + 1
    else high = mid
  }
  return WORDS[low] as string
}

// Ordered from most to least frequent: `word` draws them with a Zipf distribution, so the
// function words are as common as in real legal text ("og", "i", "skal" in nearly every
// section) and the content words rarer, which is what a full-text search's hard cases need.
const WORDS = (
  'og i av til skal som for det med eller ikke kan om etter den er når denne dersom en et at på må ' +
  'loven forskrift gjelder bestemmelsene henhold departementet kommunen vedtaket klage frist selskapet styret ' +
  'saken søknaden plikt rett krav vilkår unntak særlige grunner vesentlig Kongen gi nærmere regler ' +
  'forvaltningsorganet aksjeeier arbeidstaker arbeidsgiver helsepersonell pasienten barnet foreldrene eiendommen tiltaket byggverk ' +
  'miljø helse sikkerhet opplysninger taushetsplikt personvern erstatning straff bot fengsel inntil år måneder ' +
  'tilsynsmyndigheten rimelig forholdsmessig skriftlig underretning offentlig innsyn behandling avgjørelse gyldig ugyldig ' +
  'næringsvirksomhet skatt avgift tilskudd søker utlending oppholdstillatelse bosted folkeregisteret ' +
  'jordbruk fiske havbruk skog vassdrag konsesjon naturmangfold friluftsliv strandsonen reindrift ' +
  'utdanning elev skole barnehage høyskole universitet eksamen vitnemål læreplan ' +
  'veg trafikk kjøretøy fører førerkort fartøy havn luftfartøy jernbane tog ' +
  'økonomisk særskilt tilsvarende gjennomføring overtredelse pålegg tvangsmulkt overtredelsesgebyr'
).split(' ')

// Compounds of two stems (`havbrukskonsesjon`, `skoleregister`): thousands of distinct words,
// each rare, as most of a real legal vocabulary is.
const STEMS = (
  'havbruks fiskeri skole barnehage bygge vei jernbane luftfarts skatte avgifts tilskudds helse pasient ' +
  'arbeids miljø natur strand rein skog jord vassdrags konsesjons tilsyns klage innsyns person folke ' +
  'utlendings oppholds nærings selskaps aksje styre eiendoms trafikk fartøy havne'
).split(' ')
const ENDINGS = (
  'register myndighet ordning plan tillatelse avgift plikt melding utvalg nemnd gebyr kontroll ' +
  'område forbud vedtak sak rett tiltak regel område tilsyn loven dokument kart journal'
).split(' ')

const WORD_TABLE = zipfTable(WORDS.length)

const TOPICS = [
  ['arbeidsmiljø', 'arbeidsmiljøloven'],
  ['aksjeselskaper', 'aksjeloven'],
  ['straff', 'straffeloven'],
  ['barn og foreldre', 'barnelova'],
  ['planlegging og byggesaksbehandling', 'plan- og bygningsloven'],
  ['helsepersonell', 'helsepersonelloven'],
  ['pasient- og brukerrettigheter', 'pasient- og brukerrettighetsloven'],
  ['skatt av formue og inntekt', 'skatteloven'],
  ['behandlingsmåten i forvaltningssaker', 'forvaltningsloven'],
  ['rett til innsyn i dokument i offentleg verksemd', 'offentleglova'],
  ['vegtrafikk', 'vegtrafikkloven'],
  ['forvaltning av naturens mangfold', 'naturmangfoldloven'],
  ['grunnskolen og den vidaregåande opplæringa', 'opplæringslova'],
  ['behandling av personopplysninger', 'personopplysningsloven'],
  ['kommuner og fylkeskommuner', 'kommuneloven'],
  ['folketrygd', 'folketrygdloven'],
]

const MINISTRIES = [
  'Arbeids- og inkluderingsdepartementet',
  'Barne- og familiedepartementet',
  'Finansdepartementet',
  'Helse- og omsorgsdepartementet',
  'Justis- og beredskapsdepartementet',
  'Klima- og miljødepartementet',
  'Kommunal- og distriktsdepartementet',
  'Kunnskapsdepartementet',
  'Landbruks- og matdepartementet',
  'Nærings- og fiskeridepartementet',
  'Samferdselsdepartementet',
  'Digitaliserings- og forvaltningsdepartementet',
]

type Random = ReturnType<typeof createRandom>

function sentence(random: Random, words: number): string {
  const out: string[] = []
  for (let i = 0; i < words; i++) out.push(word(random))
  const text = out.join(' ')
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`
}

function ledd(random: Random): string {
  const sentences = random.int(1, 4)
  const parts: string[] = []
  for (let i = 0; i < sentences; i++) parts.push(sentence(random, random.int(8, 30)))
  if (random.next() < 0.15) parts.push(`jf. § ${random.int(1, 30)}-${random.int(1, 12)}.`)
  return parts.join(' ')
}

function section(random: Random, number: string, id: string): SectionSpec {
  const count = random.int(1, 5)
  const numbered = random.next() < 0.35
  const items: string[] = []
  for (let i = 0; i < count; i++) {
    let text = ledd(random)
    if (random.next() < 0.2) {
      const listItems = Array.from(
        { length: random.int(2, 6) },
        () => `${sentence(random, random.int(4, 14)).slice(0, -1).toLowerCase()},`,
      )
      text = `${text.slice(0, -1)}:\n${listXml(random.next() < 0.7 ? 'a' : '1', listItems, `${id}-ledd-${i + 1}`)}`
    }
    items.push(text)
  }
  const spec: SectionSpec = { number, title: sentence(random, random.int(1, 4)).slice(0, -1), ledd: items, numbered }
  if (random.next() < 0.3)
    spec.changes = `Endret ved lov ${random.int(1, 28)} juni ${random.int(1990, 2026)} nr. ${random.int(1, 120)}.`
  return spec
}

function date(random: Random): { y: number; m: string; d: string } {
  return {
    y: random.int(1902, 2026),
    m: String(random.int(1, 12)).padStart(2, '0'),
    d: String(random.int(1, 28)).padStart(2, '0'),
  }
}

/** One generated document in the real markup: chapters of sections, sized like the real corpus (20-80 kB on average). */
function document(random: Random, kind: 'lov' | 'forskrift', index: number, used: Set<string>): ArchiveFile {
  let when = date(random)
  let number = random.int(1, kind === 'lov' ? 130 : 2500)
  while (used.has(`${when.y}${when.m}${when.d}-${number}`)) {
    when = date(random)
    number = random.int(1, 2500)
  }
  used.add(`${when.y}${when.m}${when.d}-${number}`)
  const tail = `${when.y}-${when.m}-${when.d}-${number}`
  const base = kind === 'lov' ? 'NL' : 'SF'
  const dokid = `${base}/${kind}/${tail}`
  const [topic, short] =
    kind === 'lov' && index < TOPICS.length
      ? (TOPICS[index] as [string, string])
      : [sentence(random, random.int(2, 6)).slice(0, -1).toLowerCase(), undefined]
  const title = kind === 'lov' ? `Lov om ${topic}${short ? ` (${short})` : ''}` : `Forskrift om ${topic}`
  const chapters = random.int(1, 12)
  const bodies: string[] = []
  for (let c = 1; c <= chapters; c++) {
    const sections: string[] = []
    const perChapter = random.int(1, 9)
    for (let s = 1; s <= perChapter; s++) {
      const num = chapters > 1 ? `${c}-${s}` : `${s}`
      const id = `kapittel-${c}-paragraf-${s}`
      sections.push(sectionXml(dokid, section(random, num, id), id))
      if (random.next() < 0.05) sections.push(sectionXml(dokid, section(random, `${num}a`, `${id}a`), `${id}a`))
    }
    bodies.push(chapterXml(c, `Kapittel ${c}. ${sentence(random, random.int(1, 4)).slice(0, -1)}`, sections))
  }
  const header = {
    dokid,
    legacyId: `${kind === 'lov' ? 'LOV' : 'FOR'}-${tail}`,
    refId: `${kind}/${tail}`,
    title,
    ...(short
      ? { titleShort: `${short.charAt(0).toUpperCase()}${short.slice(1)}` }
      : random.next() < 0.6
        ? { titleShort: sentence(random, 2).slice(0, -1) }
        : {}),
    ministries: [random.pick(MINISTRIES)],
    dateInForce: [random.next() < 0.05 ? 'Kongen bestemmer' : `${when.y}-${when.m}-${when.d}`],
    lastChangeInForce: `${random.int(Math.max(when.y, 2000), 2026)}-${String(random.int(1, 12)).padStart(2, '0')}-01`,
    ...(kind === 'forskrift'
      ? { basedOn: [`lov/${random.int(1950, 2025)}-06-${String(random.int(10, 28))}-${random.int(1, 99)}`] }
      : {}),
  }
  const prefix = kind === 'lov' ? 'nl' : 'sf'
  const file = `${prefix}-${when.y}${when.m}${when.d}-${String(number).padStart(kind === 'lov' ? 3 : 4, '0')}.xml`
  return { path: `${prefix}/${file}`, xml: lovdataDocumentXml(header, bodies.join('\n')) }
}

/**
 * Generates documents of one kind in the real markup, one at a time: chapters of sections
 * with ledd, numbered ledd, lists and change notes, headers with every field the parser reads.
 * The first laws carry real short titles (arbeidsmiljøloven, aksjeloven, straffeloven, ...),
 * so a search benchmark can check ranking. Deterministic for a given seed.
 *
 * @example
 * for (const file of generateDocuments('lov', 738, 1)) tar.entry({ name: file.path }, file.xml)
 */
export function* generateDocuments(kind: 'lov' | 'forskrift', count: number, seed = 1): Generator<ArchiveFile> {
  const random = createRandom(seed * 7919 + (kind === 'lov' ? 1 : 2))
  const used = new Set<string>()
  for (let i = 0; i < count; i++) yield document(random, kind, i, used)
}

/** Whether a `bzip2` program is on the PATH; it compresses a large corpus far faster than JavaScript. */
async function hasBzip2Program(): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('bzip2', ['--help'], { stdio: 'ignore' })
    child.on('error', () => resolve(false))
    child.on('close', (code) => resolve(code === 0))
  })
}

async function writeArchive(files: Iterable<ArchiveFile>, target: string, useProgram: boolean): Promise<void> {
  const pack = tarStream.pack()
  const writing = (async () => {
    const folders = new Set<string>()
    for (const file of files) {
      const folder = file.path.slice(0, file.path.lastIndexOf('/') + 1)
      if (!folders.has(folder)) {
        folders.add(folder)
        pack.entry({ name: folder, type: 'directory' })
      }
      await new Promise<void>((resolve, reject) =>
        pack.entry({ name: file.path }, Buffer.from(file.xml), (error) => (error ? reject(error) : resolve())),
      )
    }
    pack.finalize()
  })()
  if (useProgram) {
    const child = spawn('bzip2', ['-c', '-9'], { stdio: ['pipe', 'pipe', 'inherit'] })
    await Promise.all([
      pipeline(pack as unknown as Readable, child.stdin),
      pipeline(child.stdout, createWriteStream(target)),
      writing,
    ])
  } else {
    const chunks: Buffer[] = []
    for await (const chunk of pack as unknown as AsyncIterable<Buffer>) chunks.push(chunk)
    await writing
    await pipeline(Readable.from([bzip2(Buffer.concat(chunks))]), createWriteStream(target))
  }
}

/**
 * Writes a generated corpus the size of Lovdata's as `gjeldende-lover.tar.bz2` and
 * `gjeldende-sentrale-forskrifter.tar.bz2` into `directory`, for benchmarks (not for tests:
 * it takes a while). Uses the `bzip2` program when there is one, pure JavaScript otherwise.
 *
 * @example
 * const { laws, regulations } = await writeCorpusArchives('/tmp/lovdata-corpus')
 */
export async function writeCorpusArchives(
  directory: string,
  options: CorpusOptions = {},
): Promise<{ laws: string; regulations: string; documents: number }> {
  const laws = options.laws ?? 738
  const regulations = options.regulations ?? 3427
  const seed = options.seed ?? 1
  const useProgram = await hasBzip2Program()
  const lawsPath = `${directory}/gjeldende-lover.tar.bz2`
  const regulationsPath = `${directory}/gjeldende-sentrale-forskrifter.tar.bz2`
  await writeArchive(generateDocuments('lov', laws, seed), lawsPath, useProgram)
  await writeArchive(generateDocuments('forskrift', regulations, seed), regulationsPath, useProgram)
  return { laws: lawsPath, regulations: regulationsPath, documents: laws + regulations }
}
