/**
 * A non-negative integer written in decimal, as `String(n)` writes it, for a number that is
 * new with almost every request (the requests left in a RateLimit header, under a quota of
 * thousands).
 *
 * V8 keeps the text of each number it writes in a table of a few thousand entries, and the
 * table holds on to that text. A new number per request leaves a new string there each time,
 * so every collection of young objects finds the table's strings alive and copies them, about
 * half a megabyte each time, and moves some of them to the old generation. Written here three
 * digits at a time, from a table of their own, only a number below 1000 (written by `String`,
 * and soon the same few) goes into V8's.
 *
 * A count that goes down one request at a time keeps the digits above its last three for a
 * thousand requests: those are remembered, and the text of one request is a table lookup and
 * one concatenation.
 *
 * @example
 * integerText(999_999_123) // '999999123'
 */
export function integerText(n: number): string {
  if (!(n >= 1000 && Number.isSafeInteger(n))) return String(n)
  const low = n % 1000
  const high = (n - low) / 1000
  if (high !== lastHigh) {
    lastHighText = digitsOf(high)
    lastHigh = high
  }
  return lastHighText + threeDigits()[low]!
}

/** The digits above the last three, as the last number written had them. */
let lastHigh = -1
let lastHighText = ''

/** '000' to '999', made when a number of four digits or more is first written. */
let table: string[] | undefined
const threeDigits = (): string[] => (table ??= Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0')))

function digitsOf(n: number): string {
  if (n < 1000) return String(n)
  const low = n % 1000
  return digitsOf((n - low) / 1000) + threeDigits()[low]!
}
