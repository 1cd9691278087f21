import { createHash } from 'node:crypto'
import { Transform } from 'node:stream'

/** A pass-through stream that counts and hashes (sha256) the bytes going through it. */
export interface MeteredStream extends Transform {
  readonly bytes: number
  /** The sha256 in hex; call once the stream has ended. */
  sha256(): string
}

/**
 * Counts and hashes bytes on their way through a pipeline, so a snapshot is checked as it
 * streams and never held in memory whole.
 *
 * @example
 * const meter = createMeter((bytes) => console.log(bytes))
 * await pipeline(source, meter, destination)
 * meter.sha256()
 */
export function createMeter(onBytes?: (bytes: number) => void): MeteredStream {
  const hash = createHash('sha256')
  let bytes = 0
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk)
      bytes += chunk.length
      onBytes?.(bytes)
      done(null, chunk)
    },
  }) as MeteredStream
  Object.defineProperty(meter, 'bytes', { get: () => bytes })
  meter.sha256 = () => hash.digest('hex')
  return meter
}
