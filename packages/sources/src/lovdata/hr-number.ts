/** `HR-2024-1234-A`: year, number, and the letter of the formation (A avdeling, P plenum, U ankeutvalg, S storkammer). */
const HR_NUMBER = /^HR-(\d{4})-(\d{1,6})-([A-Z])$/

/**
 * Reads a case number as users write it: `HR-2024-1234-A`, `hr-2024-1234-a`, `HR-2024-01234-A`.
 *
 * @example
 * parseHrNumber('hr-2024-01234-a') // 'HR-2024-1234-A'
 */
export function parseHrNumber(input: string): string | undefined {
  const match = HR_NUMBER.exec(input.trim().toUpperCase())
  if (!match) return undefined
  return `HR-${match[1]}-${Number(match[2])}-${match[3]}`
}
