import { Readable } from 'node:stream'
import tarStream from 'tar-stream'
import { bunzip2Chunks } from './bunzip2-chunks.js'
import { LovdataDocumentError, parseLovdataDocument, type LovdataDocument } from './parse-document.js'

/** One XML file of an archive, as text. */
export interface ArchiveFile {
  /** Path inside the archive: `nl/nl-20050520-028.xml`. */
  path: string
  xml: string
}

/** Settings of {@link readArchiveFiles} and {@link readLovdataArchive}. */
export interface ArchiveReadOptions {
  /** Largest single file accepted, in bytes; a larger one fails the read. Default 64 MiB. */
  maxFileBytes?: number
  /**
   * Most bytes the archive may unpack to. Default 16 GiB; Lovdata's archives are 5.5 and
   * ~27 MB of bzip2, which XML unpacks from some 5–20 times.
   */
  maxUnpackedBytes?: number
  /** Most bytes unpacked per compressed byte, once 64 MiB are unpacked. Default 100. */
  maxRatio?: number
  /** Most members (files, folders) the archive may hold. Default 100,000; Lovdata's hold ~5,100 at most. */
  maxMembers?: number
  /** Which archive paths to read; by default every `.xml` file. */
  include?: (path: string) => boolean
}

/**
 * The archive could not be read: not bzip2, a broken bzip2 stream (the CRC of every block is
 * checked), a broken tar, or past one of the limits (a file's size, what the archive unpacks
 * to and by what ratio, its members).
 *
 * @example
 * try { for await (const doc of readLovdataArchive(body)) store.put(doc) } catch (e) { if (e instanceof LovdataArchiveError) console.error(e.message) }
 */
export class LovdataArchiveError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'LovdataArchiveError'
  }
}

const defaultInclude = (path: string) => path.endsWith('.xml')
const MiB = 1024 * 1024
const size = (bytes: number) =>
  bytes >= 1024 * MiB
    ? `${(bytes / 1024 / MiB).toFixed(1)} GiB`
    : bytes >= MiB
      ? `${(bytes / MiB).toFixed(1)} MiB`
      : `${(bytes / 1024).toFixed(1)} KiB`

function archiveError(error: unknown): LovdataArchiveError {
  if (error instanceof LovdataArchiveError) return error
  const message = error instanceof Error ? error.message : String(error)
  if (/magic/i.test(message)) return new LovdataArchiveError('The archive is not bzip2-compressed')
  return new LovdataArchiveError(`The archive could not be read: ${message}`)
}

/**
 * Reads a `.tar.bz2` stream file by file, decompressing as it goes, one bzip2 block at a time
 * as the tar reader asks for more: only the file being read and one block are held in memory,
 * never the archive. Directories and files `include` rejects are skipped without being
 * buffered. A bomb stops at the limits (see {@link ArchiveReadOptions}) with an error naming it.
 *
 * @example
 * for await (const file of readArchiveFiles(createReadStream('gjeldende-lover.tar.bz2'))) console.log(file.path)
 */
export async function* readArchiveFiles(
  input: Readable | AsyncIterable<Uint8Array>,
  options: ArchiveReadOptions = {},
): AsyncGenerator<ArchiveFile> {
  const maxFileBytes = options.maxFileBytes ?? 64 * MiB
  const maxUnpackedBytes = options.maxUnpackedBytes ?? 16 * 1024 * MiB
  const maxRatio = options.maxRatio ?? 100
  const maxMembers = options.maxMembers ?? 100_000
  const include = options.include ?? defaultInclude
  const source = input instanceof Readable ? input : Readable.from(input)
  const decompress = Readable.from(
    bunzip2Chunks(source, {
      maxUnpackedBytes,
      maxRatio,
      ratioFrom: 64 * MiB,
      fail(limit, unpacked, packed) {
        throw new LovdataArchiveError(
          limit === 'maxUnpackedBytes'
            ? `The archive unpacks to more than ${size(maxUnpackedBytes)} (maxUnpackedBytes)`
            : `The archive unpacks more than ${maxRatio} times its size (${size(unpacked)} from ${size(packed)} so far; maxRatio): a compression bomb`,
        )
      },
    }),
    { objectMode: false },
  )
  const extract = tarStream.extract()
  // A failure anywhere upstream must end the iteration below with that error, not hang it.
  // The decoder reads the source, so a failure of the source reaches it.
  decompress.on('error', (error: unknown) => extract.destroy(archiveError(error)))
  decompress.pipe(extract)
  let members = 0
  try {
    for await (const entry of extract) {
      if (++members > maxMembers)
        throw new LovdataArchiveError(
          `The archive has more than ${maxMembers.toLocaleString('en-US')} members (maxMembers)`,
        )
      const path = entry.header.name.replace(/^\.\//, '')
      if (entry.header.type !== 'file' || !include(path)) {
        entry.resume()
        continue
      }
      const size = entry.header.size ?? 0
      if (size > maxFileBytes)
        throw new LovdataArchiveError(`${path} is ${size} bytes, more than the ${maxFileBytes} accepted`)
      const chunks: Buffer[] = []
      for await (const chunk of entry) chunks.push(chunk as Buffer)
      yield { path, xml: Buffer.concat(chunks).toString('utf8') }
    }
  } catch (error) {
    throw archiveError(error)
  } finally {
    // Stopping early (a consumer's break, an error) releases the download and the decoder.
    extract.destroy()
    decompress.destroy()
    source.destroy()
  }
}

/**
 * Reads `gjeldende-lover.tar.bz2` or `gjeldende-sentrale-forskrifter.tar.bz2` as a stream of
 * parsed documents, one at a time: header fields and every section with its whole text. A
 * file that is not a Lovdata document is reported to `onSkip` and passed over; a broken
 * archive throws a {@link LovdataArchiveError}.
 *
 * @example
 * const { body } = await createLovdataPublicData().download('gjeldende-lover.tar.bz2')
 * for await (const doc of readLovdataArchive(body)) store.put(doc)
 */
export async function* readLovdataArchive(
  input: Readable | AsyncIterable<Uint8Array>,
  options: ArchiveReadOptions & { onSkip?: (error: LovdataDocumentError) => void } = {},
): AsyncGenerator<LovdataDocument> {
  for await (const file of readArchiveFiles(input, options)) {
    try {
      yield parseLovdataDocument(file.xml, file.path)
    } catch (error) {
      if (!(error instanceof LovdataDocumentError)) throw error
      options.onSkip?.(error)
    }
  }
}
