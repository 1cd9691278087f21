/**
 * A non-negative integer written in decimal, as `String(n)` writes it, for a number that is
 * new with almost every request (the requests left in a RateLimit header, under a quota of
 * thousands).
 *
 * V8 keeps the text of each number it writes in a table of a few thousand entries, and the
 * table holds on to that text. A new number per request leaves a new string there each time,
 * so every collection of young objects finds the table's strings alive and copies them, about
 * half a megabyte each time, and moves some of them to the old generation. Written here three
 * digits at a time, only numbers below 1000 go through the table, and those meet their own
 * text there again.
 *
 * @example
 * integerText(999_999_123) // '999999123'
 */
export function integerText(n: number): string {
  if (!(n >= 1000 && Number.isSafeInteger(n))) return String(n)
  const low = n % 1000
  const lowText = low < 10 ? `00${low}` : low < 100 ? `0${low}` : String(low)
  return integerText((n - low) / 1000) + lowText
}
