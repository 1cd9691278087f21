/**
 * Whether a text has a digit: the cheap test, run before a deferred entity search is loaded, of
 * a text that search may recognize (an organisation number, a table number, `NO5`, a case
 * number), so words alone load nothing.
 *
 * @example
 * hasDigit('07459') // true: SSB's search is loaded to recognize a table number
 * hasDigit('befolkning') // false: words alone do not load it
 */
export function hasDigit(text: string): boolean {
  return /\d/.test(text)
}
