/// <reference path="./unbzip2-stream-lib.d.ts" />
// unbzip2-stream's block decoder, without its stream: the stream decodes every block it has
// input for in one go (a bomb of a few kilobytes at once), collects each block's output in
// an array of numbers (8 bytes a byte on the heap), and takes no notice of backpressure.
// Imported statically, so that bundles (the Lambda example's) carry these two files.
import bz2 from 'unbzip2-stream/lib/bzip2.js'
import bitIterator from 'unbzip2-stream/lib/bit_iterator.js'

type BitReader = ((n: number | null) => number) & { bytesRead: number }

/** Limits of {@link bunzip2Chunks}. */
export interface Bunzip2Limits {
  /** Most bytes the stream may unpack to. */
  maxUnpackedBytes: number
  /** Most bytes unpacked per compressed byte, once `ratioFrom` bytes are unpacked. */
  maxRatio: number
  ratioFrom: number
  /** Throws the error for a limit passed: which one, how far, from how many compressed bytes. */
  fail(limit: 'maxUnpackedBytes' | 'maxRatio', unpacked: number, packed: number): never
}

const outputChunk = 64 * 1024
/** Compressed bytes a block may take at most, as unbzip2-stream reckons it: read before a block is decoded. */
const blockInput = (blockSize: number) => 25_000 + 100_000 * blockSize

/**
 * Decompresses a bzip2 stream (several concatenated, as `pbzip2` writes them) block by block,
 * as the consumer asks: one block's output (at most ~46 MB, bzip2's bound; ~900 kB for text) is
 * held at a time, in 64 KiB buffers, and the limits are checked as every byte comes out, so a
 * bomb stops at the limit. Every block's CRC is checked.
 *
 * @example
 * for await (const chunk of bunzip2Chunks(createReadStream('gjeldende-lover.tar.bz2'), limits)) tar.write(chunk)
 */
export async function* bunzip2Chunks(input: AsyncIterable<Uint8Array>, limits: Bunzip2Limits): AsyncGenerator<Buffer> {
  const queue: Uint8Array[] = []
  let received = 0
  let ended = false
  const source = input[Symbol.asyncIterator]()
  // Made once there is input: it takes its first buffer at once.
  let bits: BitReader | undefined
  const used = () => bits?.bytesRead ?? 0
  const nextBuffer = () => {
    const next = queue.shift()
    if (!next) throw new Error('input stream ended prematurely')
    return next
  }
  /** Reads input until `bytes` more than the decoder has used are buffered, or the input ends. */
  const fill = async (bytes: number) => {
    while (!ended && received - used() < bytes) {
      const next = await source.next()
      if (next.done) ended = true
      else if (next.value.length > 0) {
        queue.push(next.value)
        received += next.value.length
      }
    }
  }
  let blockSize = 0
  let streamCRC: number | null = null
  let unpacked = 0
  let out = Buffer.allocUnsafe(outputChunk)
  let at = 0
  let done: Buffer[] = []
  let work = new Int32Array(0)
  const write = (byte: number) => {
    out[at++] = byte
    if (at < outputChunk) return
    done.push(out)
    out = Buffer.allocUnsafe(outputChunk)
    at = 0
    unpacked += outputChunk
    if (unpacked > limits.maxUnpackedBytes) limits.fail('maxUnpackedBytes', unpacked, used())
    if (unpacked >= limits.ratioFrom && unpacked > used() * limits.maxRatio) limits.fail('maxRatio', unpacked, used())
  }
  try {
    for (;;) {
      await fill(blockSize === 0 ? 4 : blockInput(blockSize))
      if (received - used() <= 0) {
        // The input ended: between streams is the only place it may.
        if (blockSize !== 0) throw new Error('input stream ended prematurely')
        break
      }
      bits ??= bitIterator(nextBuffer)
      if (blockSize === 0) {
        blockSize = bz2.header(bits)
        if (work.length !== 100_000 * blockSize) work = new Int32Array(100_000 * blockSize)
        streamCRC = 0
        continue
      }
      streamCRC = bz2.decompress(bits, write, work, work.length, streamCRC)
      // null: the stream's end marker; another stream may follow.
      if (streamCRC === null) blockSize = 0
      if (at > 0) {
        done.push(Buffer.from(out.subarray(0, at)))
        unpacked += at
        at = 0
      }
      const ready = done
      done = []
      for (const chunk of ready) yield chunk
    }
  } finally {
    await source.return?.()
  }
}
