import type { DatasetVersion } from '@allmenning/core/source'

/**
 * The sentence that says which version of a dataset answered, for an operation's `note`.
 *
 * @example
 * versionNote('Aksjonærregisteret', version) // 'From Aksjonærregisteret as published 2024-12-31 (loaded 2026-11-23).'
 */
export function versionNote(title: string, version: DatasetVersion): string {
  const published = version.publishedAt ? ` as published ${version.publishedAt.slice(0, 10)}` : ''
  return `From ${title}${published} (loaded ${version.loadedAt.slice(0, 10)}).`
}
