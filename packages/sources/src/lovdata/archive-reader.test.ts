import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { LovdataArchiveError, readArchiveFiles, readLovdataArchive } from './archive-reader.js'
import type { LovdataDocument } from './parse-document.js'
import { buildLovdataArchive, bzip2, packTar, tarHeader } from './testing/archive-builder.js'
import { generateDocuments } from './testing/corpus-generator.js'
import { lawFixtures, regulationFixtures } from './testing/fixtures.js'

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of iterable) out.push(item)
  return out
}

/** Feeds bytes in small chunks, as a download arrives. */
const chunked = (bytes: Buffer, size = 997) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size)
    })(),
  )

describe('readLovdataArchive', () => {
  it('yields every law of gjeldende-lover.tar.bz2, parsed, in archive order', async () => {
    const docs = await collect(readLovdataArchive(chunked(await buildLovdataArchive(lawFixtures()))))
    expect(docs.map((d) => [d.path, d.documentId, d.language])).toEqual([
      ['nl/nl-18140517-000.xml', 'NL/lov/1814-05-17', 'nb'],
      ['nl/nl-18140517-000-nn.xml', 'NL/lov/1814-05-17-nn', 'nn'],
      ['nl/nl-19670210-000.xml', 'NL/lov/1967-02-10', 'nb'],
      ['nl/nl-19970613-044.xml', 'NL/lov/1997-06-13-44', 'nb'],
      ['nl/nl-20050520-028.xml', 'NL/lov/2005-05-20-28', 'nb'],
    ])
    expect(docs[3]?.sections.map((s) => s.section)).toEqual(['3-1', '3-2', '3-3'])
  })

  it('reads the regulations archive', async () => {
    const [tek17] = await collect(readLovdataArchive(Readable.from([await buildLovdataArchive(regulationFixtures())])))
    expect(tek17).toMatchObject({
      documentId: 'SF/forskrift/2017-06-19-840',
      path: 'sf/sf-20170619-0840.xml',
      kind: 'forskrift',
    })
  })

  it('hands out one document at a time: the rest of the archive is not read before it is asked for', async () => {
    const files = [...generateDocuments('lov', 60, 7)]
    // 100 kB blocks: the decoder reads ahead one block's worth of input at most (125 kB here).
    const archive = bzip2(await packTar(files), 1)
    let fed = 0
    const source = Readable.from(
      (function* () {
        for (let i = 0; i < archive.length; i += 4096) {
          fed = Math.min(i + 4096, archive.length)
          yield archive.subarray(i, i + 4096)
        }
      })(),
    )
    const iterator = readLovdataArchive(source)[Symbol.asyncIterator]()
    const first = await iterator.next()
    expect((first.value as LovdataDocument).path).toBe(files[0]?.path)
    // The decoder and stream buffers hold some read-ahead, never the archive.
    expect(fed).toBeLessThan(archive.length / 2)
    await iterator.return?.(undefined)
    expect(source.destroyed).toBe(true)
  }, 30_000)

  it('passes over files that are no Lovdata document and reports them', async () => {
    const skipped: string[] = []
    const archive = bzip2(
      await packTar([{ path: 'nl/README.xml', xml: '<html><body>Les meg</body></html>' }, ...regulationFixtures()]),
    )
    const docs = await collect(readLovdataArchive(Readable.from([archive]), { onSkip: (e) => skipped.push(e.message) }))
    expect(docs.map((d) => d.documentId)).toEqual(['SF/forskrift/2017-06-19-840'])
    expect(skipped).toEqual(['nl/README.xml: has no <main class="documentBody">'])
  })

  it('skips directories and files that are not XML without reading them', async () => {
    const archive = bzip2(await packTar([{ path: 'nl/notes.txt', xml: 'x' }, ...regulationFixtures()]))
    expect((await collect(readArchiveFiles(Readable.from([archive])))).map((f) => f.path)).toEqual([
      'sf/sf-20170619-0840.xml',
    ])
  })

  it('fails clearly on bytes that are not bzip2', async () => {
    await expect(
      collect(readLovdataArchive(Readable.from([Buffer.from('<html>502 Bad Gateway</html>')]))),
    ).rejects.toThrow(new LovdataArchiveError('The archive is not bzip2-compressed'))
  })

  it('fails on a cut-off archive instead of ending early as if it were whole', async () => {
    const archive = await buildLovdataArchive(lawFixtures())
    await expect(
      collect(readLovdataArchive(Readable.from([archive.subarray(0, archive.length - 40)]))),
    ).rejects.toBeInstanceOf(LovdataArchiveError)
  })

  it('fails on a file larger than allowed', async () => {
    const archive = await buildLovdataArchive(lawFixtures())
    await expect(collect(readArchiveFiles(Readable.from([archive]), { maxFileBytes: 1000 }))).rejects.toThrow(
      /nl\/nl-18140517-000.xml is \d+ bytes, more than the 1000 accepted/,
    )
  })
})

describe('readArchiveFiles against bombs', () => {
  // Streams of bzip2 one after the other are one valid file: 256 copies of a ~45-byte stream of
  // 1 MiB of zeros unpack to 256 MiB.
  const zeros = bzip2(Buffer.alloc(1024 * 1024))

  it('stops a bzip2 bomb at the ratio limit, one block in memory at a time, naming the limit', async () => {
    const bomb = Buffer.concat([
      bzip2(tarHeader('nl/big.bin', 256 * 1024 * 1024)),
      ...Array.from({ length: 256 }, () => zeros),
      bzip2(Buffer.alloc(1024)),
    ])
    expect(bomb.length).toBeLessThan(20_000)
    await expect(collect(readArchiveFiles(Readable.from([bomb])))).rejects.toThrow(
      /^The archive unpacks more than 100 times its size \(64\.0 MiB from \d+\.\d KiB so far; maxRatio\): a compression bomb$/,
    )
    await expect(
      collect(readArchiveFiles(Readable.from([bomb]), { maxUnpackedBytes: 16 * 1024 * 1024 })),
    ).rejects.toThrow(new LovdataArchiveError('The archive unpacks to more than 16.0 MiB (maxUnpackedBytes)'))
  }, 60_000)

  it('stops an archive of more members than allowed', async () => {
    const files = Array.from({ length: 1000 }, (_, i) => ({ path: `e-${i}.txt`, xml: '' }))
    const tar = await packTar(files)
    // 200 copies of 1,000 empty members, the end of the archive only once, after them all.
    const members = bzip2(tar.subarray(0, tar.length - 1024))
    const archive = Buffer.concat([...Array.from({ length: 200 }, () => members), bzip2(Buffer.alloc(1024))])
    await expect(collect(readArchiveFiles(Readable.from([archive])))).rejects.toThrow(
      new LovdataArchiveError('The archive has more than 100,000 members (maxMembers)'),
    )
    expect(await collect(readArchiveFiles(Readable.from([archive]), { maxMembers: 300_000, maxRatio: 1000 }))).toEqual(
      [],
    )
  }, 120_000)
})
