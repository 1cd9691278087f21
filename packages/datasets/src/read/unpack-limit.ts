import { Transform } from 'node:stream'
import { describeSize, limitOptions, ratioCheckedFrom, ReadLimitError, type ReadLimits } from './read-limits.js'

/**
 * Whether `unpacked` bytes from `packed` go past the limits: the error to throw, or undefined.
 * Shared by streams counted as they unpack and zip members judged by their declared sizes.
 *
 * @example
 * const error = unpackedTooMuch('roller.json.gz', 2 ** 35, 1e6, limits)
 */
export function unpackedTooMuch(
  name: string,
  unpacked: number,
  packed: number,
  limits: ReadLimits,
): ReadLimitError | undefined {
  if (unpacked > limits.maxUnpackedBytes) {
    return new ReadLimitError(
      `${name} unpacks to more than ${describeSize(limits.maxUnpackedBytes)} (the most a file may unpack to; raise it with ${limitOptions.maxUnpackedBytes})`,
      'maxUnpackedBytes',
    )
  }
  if (unpacked >= ratioCheckedFrom && unpacked > packed * limits.maxRatio) {
    return new ReadLimitError(
      `${name} unpacks more than ${limits.maxRatio} times its size (${describeSize(unpacked)} from ${describeSize(packed)} so far): ` +
        `a compression bomb, or raise the limit with ${limitOptions.maxRatio}`,
      'maxRatio',
    )
  }
  return undefined
}

/**
 * Passes unpacked bytes through, counting them against {@link ReadLimits}, and fails the
 * stream as soon as they go past: a bomb stops at the limit, having used no more memory than
 * the stream's own buffers. `packed` says how many compressed bytes were read so far.
 *
 * @example
 * input.pipe(createGunzip()).pipe(limitUnpacked('totalbestand', limits, () => counter.bytes))
 */
export function limitUnpacked(name: string, limits: ReadLimits, packed: () => number): Transform {
  let unpacked = 0
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      unpacked += chunk.length
      const error = unpackedTooMuch(name, unpacked, packed(), limits)
      done(error, error ? undefined : chunk)
    },
  })
}
