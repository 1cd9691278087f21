import type { SourceDefinition } from './define-source.js'

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
  const languages = new Set<string>(['en'])
  for (const source of sources) for (const language of source.contentLanguages) languages.add(language)
  return {
    retrieved_at: new Date().toISOString(),
    language: 'en',
    content_languages: [...languages],
    sources: sources.map(sourceSummary),
    ...extra,
  }
}
