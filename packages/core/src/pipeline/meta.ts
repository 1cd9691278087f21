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
 * The `_meta` object of spec 2.2, with `demo: true` and its note when a source is played from
 * recorded fixtures (see `SourceDefinition.demo`). `retrieved_at` is when the answer was produced; a cached
 * answer keeps the time its data was retrieved (the `Age` header tells how old it is).
 */
export function buildMeta(sources: SourceDefinition[], extra: Record<string, unknown> = {}) {
  // The data's own languages; `language` already says the envelope is English.
  const languages = new Set<string>(sources.flatMap((source) => source.contentLanguages))
  if (languages.size === 0) languages.add('en')
  // An answer with anything from a source played from recorded fixtures says so, whatever else it holds.
  const demo = sources.find((source) => source.demo)?.demo
  return {
    retrieved_at: new Date().toISOString(),
    language: 'en',
    content_languages: [...languages],
    sources: sources.map(sourceSummary),
    ...(demo ? { demo: true, demo_note: demo.note } : {}),
    ...extra,
  }
}
