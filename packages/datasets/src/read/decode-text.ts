import { Transform, type Readable } from 'node:stream'
import iconv from 'iconv-lite'
import type { DelimitedFormat } from '@allmenning/core/source'

/** A character set a delimited file may be written in. */
export type TextEncoding = NonNullable<DelimitedFormat['encodings']>[number]

const utf8Bom = Buffer.from([0xef, 0xbb, 0xbf])
const sniffBytes = 1024 * 1024

/**
 * Which of `encodings` a file is written in, judged from its first bytes: a UTF-8 byte-order
 * mark decides at once; otherwise the first candidate that decodes the sample without an
 * invalid sequence wins. Single-byte sets decode anything, so they belong last.
 *
 * @example
 * pickEncoding(Buffer.from([0x4f, 0x72, 0x67, 0xe6]), ['utf-8', 'windows-1252']) // 'windows-1252' (0xE6 alone is not UTF-8)
 */
export function pickEncoding(sample: Buffer, encodings: TextEncoding[]): { encoding: TextEncoding; bom: boolean } {
  if (sample.subarray(0, 3).equals(utf8Bom)) return { encoding: 'utf-8', bom: true }
  for (const encoding of encodings) {
    if (encoding !== 'utf-8') return { encoding, bom: false }
    try {
      // `stream: true` so a character cut off at the end of the sample is not an error.
      new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true })
      return { encoding, bom: false }
    } catch {
      // Not UTF-8: the next encoding is tried.
    }
  }
  return { encoding: encodings[encodings.length - 1] ?? 'utf-8', bom: false }
}

/**
 * Decodes a byte stream into text in the file's own character set (see {@link pickEncoding}),
 * dropping a byte-order mark. Characters split across chunks are kept whole.
 *
 * @example
 * for await (const text of decodeText(createReadStream('Tildelinger.csv'), ['utf-8', 'windows-1252'])) lines.push(text)
 */
export function decodeText(
  input: Readable,
  encodings: TextEncoding[] = ['utf-8'],
): Readable & { encoding?: TextEncoding } {
  let pending: Buffer[] = []
  let pendingBytes = 0
  let decoder: { write(chunk: Buffer): string; end(): string | undefined } | undefined
  const output = new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer, _encoding, done) {
      if (decoder) {
        const text = decoder.write(chunk)
        if (text) this.push(text)
        return done()
      }
      pending.push(chunk)
      pendingBytes += chunk.length
      if (pendingBytes >= sniffBytes) start(this)
      done()
    },
    flush(done) {
      if (!decoder) start(this)
      const rest = decoder?.end()
      if (rest) this.push(rest)
      done()
    },
  }) as Transform & { encoding?: TextEncoding }

  function start(stream: Transform) {
    const sample = Buffer.concat(pending)
    pending = []
    const { encoding, bom } = pickEncoding(sample, encodings)
    output.encoding = encoding
    decoder =
      encoding === 'utf-8' ? utf8Decoder() : iconv.getDecoder(encoding === 'windows-1252' ? 'win1252' : 'latin1')
    const text = decoder.write(bom ? sample.subarray(3) : sample)
    if (text) stream.push(text)
  }

  input.on('error', (error) => output.destroy(error))
  return input.pipe(output)
}

function utf8Decoder() {
  const decoder = new TextDecoder('utf-8')
  return {
    write: (chunk: Buffer) => decoder.decode(chunk, { stream: true }),
    end: () => decoder.decode(),
  }
}
