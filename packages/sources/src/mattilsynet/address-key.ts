/**
 * The key one establishment's address is placed by, in the smilefjes file and in the file of
 * placed addresses alike: the street line in lower case with single spaces (and the letter
 * after a house number joined to it, `12 b` = `12B`), a `|`, and the postal code. Two
 * establishments at one address share one key, so an address is looked up once.
 *
 * @example
 * addressKey('Storgata  12 B', '0155') // 'storgata 12b|0155'
 * addressKey('', '0155') // null
 */
export function addressKey(street: string, postnr: string): string | null {
  const line = street
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/(\d)\s+([a-zæøå])$/u, '$1$2')
    .trim()
  const code = postnr.trim()
  if (line === '' || !/^\d{4}$/.test(code)) return null
  return `${line}|${code}`
}

/**
 * A postal place in the form it is looked up by: lower case, single spaces, Unicode NFC.
 *
 * @example
 * placeKey(' OSLO ') // 'oslo'
 */
export function placeKey(name: string): string {
  return name.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim()
}
