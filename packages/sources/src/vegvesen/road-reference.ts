/** Road categories of the Norwegian road reference: European, national (riks), county (fylkes), municipal, private. */
export const roadCategories = ['E', 'R', 'F', 'K', 'P'] as const

/**
 * The road a text names, as the road reference writes it: `E6`, `Ev6`, `EV 6`, `rv4`, `Fv44`
 * all become `EV6`, `RV4`, `FV44`; anything else is undefined.
 *
 * @example
 * roadOf('E 6') // 'EV6'
 * roadOf('fv 44') // 'FV44'
 */
export function roadOf(text: string): string | undefined {
  const match = /^\s*([ERFKP])\s*V?\s*(\d{1,5})\s*$/i.exec(text)
  return match ? `${match[1]!.toUpperCase()}V${Number(match[2])}` : undefined
}

/**
 * The road of a registration point's road reference (`EV6 S26D1 m1234` → `EV6`), or null.
 *
 * @example
 * roadOfReference('FV44 S3D1 m250') // 'FV44'
 */
export function roadOfReference(shortForm: string | null): string | null {
  const match = /^([ERFKP])V(\d+)\b/.exec(shortForm ?? '')
  return match ? `${match[1]}V${Number(match[2])}` : null
}
