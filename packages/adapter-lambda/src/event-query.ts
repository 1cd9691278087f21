type MultiValueQuery = Record<string, string[] | undefined> | null | undefined
type SingleValueQuery = Record<string, string | undefined> | null | undefined

/**
 * Rebuilds a raw query string from the parameter maps of v1 and ALB events. The multi-value
 * map wins because the single-value one keeps only the last of repeated keys. `encode` is
 * `encodeURIComponent` for v1 (API Gateway decoded the values, so `a&b=c` must be escaped
 * again) and the identity for ALB (which passes them on still encoded). Order between
 * different keys is lost upstream; order within a repeated key survives.
 *
 * @example
 * joinEventQuery({ area: ['NO1', 'NO2'] }, null, encodeURIComponent) // 'area=NO1&area=NO2'
 */
export function joinEventQuery(
  multi: MultiValueQuery,
  single: SingleValueQuery,
  encode: (text: string) => string,
): string {
  const pairs: string[] = []
  if (multi && Object.keys(multi).length > 0) {
    for (const [key, values] of Object.entries(multi)) {
      for (const value of values ?? []) pairs.push(`${encode(key)}=${encode(value)}`)
    }
  } else if (single) {
    for (const [key, value] of Object.entries(single)) {
      if (value !== undefined) pairs.push(`${encode(key)}=${encode(value)}`)
    }
  }
  return pairs.join('&')
}
