/** Settings of {@link buildFtsQuery}. */
export interface FtsQueryOptions {
  /**
   * Columns the words are searched in (`['title_short', 'title']` for a titles-only search);
   * every column of the table when absent.
   */
  columns?: readonly string[]
  /** Column section references are searched in; the same columns as the words when absent. */
  sectionColumn?: string
  /**
   * How a section is indexed when it is one token (`3-1` → `p3x1`); by default a section is
   * searched as the phrase of the tokens its number is made of (`"3 1"`).
   */
  sectionToken?: (section: string) => string
  /** Widest range expanded into its sections (`§§ 3-1 til 3-60` is 60); wider ranges keep only their ends. Default 50. */
  maxRange?: number
  /** Words shorter than this are matched whole, longer ones also as a prefix (`aksjelov` finds `aksjeloven`). Default 3. */
  minPrefixLength?: number
}

/** A search text turned into an SQLite FTS5 MATCH expression. */
export interface FtsQuery {
  /** The FTS5 MATCH expression, safe to bind as a parameter: every user term is quoted. */
  match: string
  /** The words searched, in order, lower case (for ranking, such as an exact short-title match). */
  words: string[]
  /** Phrases the user quoted, lower case. */
  phrases: string[]
  /** Sections referenced (`§ 5a`, `§§ 3-1 til 3-3`), normalised as stored: `5a`, `3-1`, `3-2`, `3-3`. */
  sections: string[]
}

// The patterns name their letters and signs outside ASCII by escape (æ ø å, §, – and —, as
// \u00e6 \u00f8 \u00e5, \u00a7, \u2013 and \u2014), which RegExp reads as the characters: a
// String.raw text keeps them as written, and one such character in the Lambda bundle would
// make Node read all of its code as a two-byte string.
/** One section number: `5`, `5a`, `5 a`, `3-1`, `2 A-1`, `13-5 b`. */
const SECTION_NUMBER = String.raw`\d+(?:\s?[a-z\u00e6\u00f8\u00e5](?![\p{L}]))?(?:\s*-\s*\d+(?:\s?[a-z\u00e6\u00f8\u00e5](?![\p{L}]))?)?`
/** A section reference after `§`, `§§` or `paragraf(ene)`, with further numbers joined by `,`, `og`, `til`, `-` or `–`. */
const SECTION_REFERENCE = new RegExp(
  String.raw`(?:\u00a7{1,2}|\bparagraf(?:ene|en)?\b)\s*(${SECTION_NUMBER}(?:\s*(?:,|\bog\b|\btil\b|\u2013|\u2014|\bflg\b\.?)\s*${SECTION_NUMBER})*)`,
  'giu',
)
const NUMBER_IN_LIST = new RegExp(String.raw`(${SECTION_NUMBER})|(\btil\b|\u2013|\u2014)`, 'giu')
/** Words as FTS5's unicode61 tokenizer sees them: runs of letters and digits. */
const WORD = /[\p{L}\p{N}]+/gu

function normalizeNumber(raw: string): string {
  return raw.toLowerCase().replace(/\s+/g, '')
}

/** `3-1` and `3-3` → `3-1, 3-2, 3-3`; `3` and `5` → `3, 4, 5`; anything else only its ends. */
function expandRange(from: string, to: string, maxRange: number): string[] {
  const split = (n: string) => /^(?:(\d+[a-zæøå]?)-)?(\d+)$/.exec(n)
  const a = split(from)
  const b = split(to)
  if (a && b && a[1] === b[1]) {
    const start = Number(a[2])
    const end = Number(b[2])
    if (end > start && end - start < maxRange) {
      const prefix = a[1] !== undefined ? `${a[1]}-` : ''
      return Array.from({ length: end - start + 1 }, (_, i) => `${prefix}${start + i}`)
    }
  }
  return [from, to]
}

function sectionsIn(list: string, maxRange: number): string[] {
  const found: string[] = []
  let rangeOpen = false
  for (const match of list.matchAll(NUMBER_IN_LIST)) {
    if (match[2] !== undefined) {
      rangeOpen = found.length > 0
      continue
    }
    const number = normalizeNumber(match[1] as string)
    if (rangeOpen) {
      const from = found.pop() as string
      found.push(...expandRange(from, number, maxRange))
      rangeOpen = false
    } else {
      found.push(number)
    }
  }
  return found
}

/**
 * Whether a searched word also matches as the beginning of a longer one: words of at least
 * `minPrefixLength` letters, never a bare number (`5` must not find `50`).
 *
 * @example
 * matchesAsPrefix('aksjelov', 3) // true
 */
export function matchesAsPrefix(word: string, minPrefixLength: number): boolean {
  return word.length >= minPrefixLength && !/^\d+$/.test(word)
}

/**
 * Whether a word of some text is matched by a searched word as {@link buildFtsQuery} matches
 * it: whole, or as its beginning when {@link matchesAsPrefix}. Both lower case.
 *
 * @example
 * matchesWord('radonsperre', 'radon', 3) // true
 */
export function matchesWord(token: string, word: string, minPrefixLength: number): boolean {
  return token === word || (matchesAsPrefix(word, minPrefixLength) && token.startsWith(word))
}

/** Words as {@link buildFtsQuery} and the index see them: lower case, runs of letters and digits. */
export function wordsOf(text: string): string[] {
  return text.normalize('NFC').toLowerCase().match(WORD) ?? []
}

/** An FTS5 string: double quotes around, inner double quotes doubled; operators inside are plain text. */
function quote(text: string): string {
  return `"${text.replace(/"/g, '""')}"`
}

/** A section as the tokens FTS5 sees in text such as "§ 3-1": `3-1` is the phrase `"3 1"`. */
function sectionPhrase(section: string): string {
  return quote(section.replace(/[-.]/g, ' '))
}

/** Limits an expression to columns; `group` keeps an OR list together when it stands beside others. */
function restrict(columns: readonly string[] | undefined, expression: string, group: boolean): string {
  if (columns && columns.length > 0) return `{${columns.join(' ')}} : (${expression})`
  return group ? `(${expression})` : expression
}

/**
 * Turns what a user types into an SQLite FTS5 MATCH expression for the rules index. Words
 * must all match (longer ones also as a prefix, so `aksjelov` finds `aksjeloven`); quoted
 * text is a phrase; section references (`§ 5a`, `§5a`, `paragraf 13-5`, `§§ 3-1 til 3-3`,
 * `§§ 3, 5 og 7`) become phrases of the tokens the section number is made of, a range
 * expanded into each section, any one of which may match. Æ, ø, å and other letters are
 * kept as they are: the tokenizer (unicode61 with `remove_diacritics 0`) folds only case.
 * FTS5 syntax typed by the user (`AND`, `NEAR`, `*`, `:`, `^`) is searched as text, never
 * run. Returns undefined when nothing searchable is left.
 *
 * @example
 * buildFtsQuery('straffeloven § 5a')?.match // '"straffeloven"* AND ("5a")'
 * buildFtsQuery('§§ 3-1 til 3-3')?.sections // ['3-1', '3-2', '3-3']
 * buildFtsQuery('aksjeloven', { columns: ['title_short', 'title'] })?.match // '{title_short title} : ("aksjeloven"*)'
 */
export function buildFtsQuery(input: string, options: FtsQueryOptions = {}): FtsQuery | undefined {
  const maxRange = options.maxRange ?? 50
  const minPrefix = options.minPrefixLength ?? 3
  let rest = input.normalize('NFC')

  const phrases: string[] = []
  rest = rest.replace(/"([^"]*)"/g, (_, phrase: string) => {
    const tokens = wordsOf(phrase)
    if (tokens.length > 0) phrases.push(tokens.join(' '))
    return ' '
  })

  const sections: string[] = []
  rest = rest.replace(SECTION_REFERENCE, (_, list: string) => {
    for (const section of sectionsIn(list, maxRange)) if (!sections.includes(section)) sections.push(section)
    return ' '
  })

  const words = wordsOf(rest).filter((word, i, all) => all.indexOf(word) === i)
  const terms = [
    ...words.map((word) => (matchesAsPrefix(word, minPrefix) ? `${quote(word)}*` : quote(word))),
    ...phrases.map(quote),
  ]
  const parts: string[] = []
  if (terms.length > 0) parts.push(restrict(options.columns, terms.join(' AND '), false))
  if (sections.length > 0) {
    const token = options.sectionToken
    const any = sections.map((section) => (token ? quote(token(section)) : sectionPhrase(section))).join(' OR ')
    parts.push(restrict(options.sectionColumn ? [options.sectionColumn] : options.columns, any, true))
  }
  if (parts.length === 0) return undefined
  const match = parts.join(' AND ')
  return { match, words, phrases, sections }
}
