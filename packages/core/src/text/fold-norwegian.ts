/**
 * Folds text for forgiving matching: lower case, accents dropped, and the Norwegian letters
 * Unicode does not decompose written out (æ as "ae", ø as "o"; å decomposes to a). Users
 * type "tromso" for Tromsø and "bronnoysund" for Brønnøysund.
 *
 * @example
 * foldNorwegian('Tromsø') // 'tromso'
 * foldNorwegian('Brønnøysund') === foldNorwegian('bronnoysund') // true
 */
export function foldNorwegian(text: string): string {
  return text.toLowerCase().replace(/æ/g, 'ae').replace(/ø/g, 'o').normalize('NFD').replace(/\p{M}/gu, '')
}
