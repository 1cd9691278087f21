/**
 * The character sets Norwegian public services answer in: UTF-8 (with or without a byte order
 * mark), ISO-8859-1 (Avinor's XML feeds) and Windows-1252 (CSV files from older registers).
 */
export type Charset = 'utf-8' | 'iso-8859-1' | 'windows-1252'

// Windows-1252 differs from ISO-8859-1 only in 0x80-0x9F, where it puts printable characters
// (€, š, „, ...) instead of control codes; five of those bytes are unassigned.
const windows1252High: Record<string, number> = {
  '€': 0x80,
  '‚': 0x82,
  ƒ: 0x83,
  '„': 0x84,
  '…': 0x85,
  '†': 0x86,
  '‡': 0x87,
  ˆ: 0x88,
  '‰': 0x89,
  Š: 0x8a,
  '‹': 0x8b,
  Œ: 0x8c,
  Ž: 0x8e,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
  '˜': 0x98,
  '™': 0x99,
  š: 0x9a,
  '›': 0x9b,
  œ: 0x9c,
  ž: 0x9e,
  Ÿ: 0x9f,
}

function singleByte(text: string, charset: Exclude<Charset, 'utf-8'>): Buffer {
  const bytes = Buffer.alloc(text.length)
  let length = 0
  for (const char of text) {
    const code = char.codePointAt(0)!
    const mapped = charset === 'windows-1252' ? windows1252High[char] : undefined
    if (mapped !== undefined) {
      bytes[length++] = mapped
    } else if (code <= 0xff && !(charset === 'windows-1252' && code >= 0x80 && code <= 0x9f)) {
      bytes[length++] = code
    } else {
      // A fixture that cannot be sent in the upstream's charset is a mistake in the test, not data to mangle.
      throw new RangeError(
        `"${char}" (U+${code.toString(16).toUpperCase().padStart(4, '0')}) cannot be written in ${charset}`,
      )
    }
  }
  return bytes.subarray(0, length)
}

/**
 * The bytes of `text` in the given charset, as the upstream puts them on the wire; `bom` puts
 * a UTF-8 byte order mark first, as some exports do. A character the charset cannot hold is an
 * error.
 *
 * @example
 * encodeText('Tromsø lufthavn', 'iso-8859-1') // <Buffer 54 72 6f 6d 73 f8 ...>, ø as one byte 0xf8
 * encodeText('navn;beløp', 'utf-8', { bom: true }) // starts with ef bb bf
 */
export function encodeText(text: string, charset: Charset, options: { bom?: boolean } = {}): Buffer {
  if (charset === 'utf-8') {
    const body = Buffer.from(text, 'utf8')
    return options.bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body
  }
  if (options.bom) throw new RangeError(`A byte order mark belongs to UTF-8, not ${charset}`)
  return singleByte(text, charset)
}
