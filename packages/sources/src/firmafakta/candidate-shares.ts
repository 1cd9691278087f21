/**
 * How many candidates to ask Brønnøysund for in each municipality a circle touches, `cap` in
 * all: in proportion to how many of the circle's sample points fell in each (a rough measure
 * of how much of the circle lies there), at least `minimum` each, and what rounding leaves
 * over to the first (the centre's). The result sums to `cap` whenever `minimum` times the
 * number of municipalities does not exceed it.
 *
 * @example
 * candidateShares([9], 100, 10) // [100]
 * candidateShares([6, 2, 1], 100, 10) // [67, 22, 11]
 * candidateShares([1, 1, 1, 1, 1, 1, 1, 1, 1], 100, 10) // [12, 11, 11, 11, 11, 11, 11, 11, 11]
 */
export function candidateShares(samples: readonly number[], cap: number, minimum: number): number[] {
  const total = samples.reduce((sum, n) => sum + n, 0)
  if (samples.length === 0 || total <= 0) return samples.map(() => 0)
  const shares = samples.map((n) => Math.max(minimum, Math.floor((cap * n) / total)))
  let sum = shares.reduce((a, b) => a + b, 0)
  while (sum > cap) {
    const largest = shares.indexOf(Math.max(...shares))
    if ((shares[largest] ?? 0) <= minimum) break
    shares[largest]!--
    sum--
  }
  if (sum < cap) shares[0]! += cap - sum
  return shares
}
