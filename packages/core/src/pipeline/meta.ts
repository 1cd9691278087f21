import type { SourceDefinition } from '../plugin/define-source.js'

/** A source as `_meta.sources` lists it. */
export interface SourceSummary {
  id: string
  name: string
  description: string
  documentation: string
  cache_ttl_seconds: number
}

export function sourceSummary(source: SourceDefinition): SourceSummary {
  return {
    id: source.id,
    name: source.name,
    description: source.description,
    documentation: source.documentation,
    cache_ttl_seconds: source.cacheTtlSeconds,
  }
}

/**
 * The `_meta` object of spec 2.2. `retrieved_at` is when the answer was produced; a cached
 * answer keeps the time its data was retrieved (the `Age` header tells how old it is).
 */
export function buildMeta(sources: SourceDefinition[], extra: Record<string, unknown> = {}) {
  // The data's own languages; `language` already says the envelope is English.
  const languages = new Set<string>(sources.flatMap((source) => source.contentLanguages))
  if (languages.size === 0) languages.add('en')
  return {
    retrieved_at: new Date().toISOString(),
    language: 'en',
    content_languages: [...languages],
    sources: sources.map(sourceSummary),
    ...extra,
  }
}
