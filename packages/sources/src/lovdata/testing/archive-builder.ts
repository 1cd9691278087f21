import compressjs from 'compressjs'
import tarStream from 'tar-stream'
import type { ArchiveFile } from '../archive-reader.js'

/**
 * Packs files into a tar archive the way Lovdata's are laid out: a directory entry for each
 * folder (`nl/`), then the files, with ordinary ustar headers.
 *
 * @example
 * const tar = await packTar([{ path: 'nl/nl-20050520-028.xml', xml }])
 */
export async function packTar(files: ArchiveFile[], mtime = new Date('2026-09-03T02:00:00Z')): Promise<Buffer> {
  const pack = tarStream.pack()
  const chunks: Buffer[] = []
  pack.on('data', (chunk: unknown) => chunks.push(chunk as Buffer))
  const done = new Promise<void>((resolve, reject) => {
    pack.on('end', () => resolve())
    pack.on('error', reject)
  })
  const folders = new Set<string>()
  for (const file of files) {
    const folder = file.path.includes('/') ? file.path.slice(0, file.path.lastIndexOf('/') + 1) : ''
    if (folder && !folders.has(folder)) {
      folders.add(folder)
      pack.entry({ name: folder, type: 'directory', mode: 0o755, mtime })
    }
    pack.entry({ name: file.path, mode: 0o644, mtime }, Buffer.from(file.xml, 'utf8'))
  }
  pack.finalize()
  await done
  return Buffer.concat(chunks)
}

/**
 * Compresses bytes with bzip2 in pure JavaScript, so tests need no `bzip2` program.
 *
 * @example
 * const archive = bzip2(await packTar(files))
 */
export function bzip2(bytes: Buffer, blockSize = 9): Buffer {
  return Buffer.from(compressjs.Bzip2.compressFile(bytes, undefined, blockSize))
}

/**
 * A `.tar.bz2` archive of the given files, shaped like Lovdata's public data.
 *
 * @example
 * const archive = await buildLovdataArchive(lawFixtures())
 * for await (const doc of readLovdataArchive(Readable.from([archive]))) console.log(doc.documentId)
 */
export async function buildLovdataArchive(files: ArchiveFile[]): Promise<Buffer> {
  return bzip2(await packTar(files))
}

/**
 * A ustar header of a file of `size` bytes, for a test to write the content after it (or not):
 * the start of a bomb whose content is unpacked zeros.
 *
 * @example
 * const bomb = Buffer.concat([bzip2(tarHeader('nl/big.bin', 2 ** 28)), ...Array(256).fill(bzip2(Buffer.alloc(2 ** 20)))])
 */
export function tarHeader(name: string, size: number): Buffer {
  const header = Buffer.alloc(512)
  header.write(name, 0, 'utf8')
  header.write('0000644\0', 100)
  header.write('0000000\0', 108)
  header.write('0000000\0', 116)
  header.write(`${size.toString(8).padStart(11, '0')}\0`, 124)
  header.write('15070000000\0', 136)
  header.write('        ', 148)
  header.write('0', 156)
  header.write('ustar\0' + '00', 257)
  let sum = 0
  for (const byte of header) sum += byte
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148)
  return header
}
