import { allSection, summarySection } from '../plugin/place-fields.js'
import type { PlaceProviders } from './place-providers.js'

/**
 * The `section` values of `/api/v1/steder/{lat}/{lon}` on a gateway with these place fields:
 * `summary` (the default, small: the fields declared `summary: true`), each section a field
 * declares, ordered by the lowest `sectionOrder` its fields give and then as they first
 * appear among the fields, and `all` (every field), which must be asked for.
 *
 * @example
 * placeSections(providers) // ['summary', 'geography', 'weather', 'air', 'poi', 'energy', 'maritime', 'all'] with the built-in sources
 */
export function placeSections(providers: PlaceProviders): string[] {
  const lowest = new Map<string, number>()
  for (const { field } of providers.values()) {
    lowest.set(field.section, Math.min(lowest.get(field.section) ?? Infinity, field.sectionOrder ?? Infinity))
  }
  // Map keys keep the order of first appearance, and the sort is stable, so it is the tie-break.
  const sections = [...lowest.keys()].sort((a, b) => lowest.get(a)! - lowest.get(b)! || 0)
  return [summarySection, ...sections, allSection]
}

/**
 * The fields one section fetches, in answer order.
 *
 * @example
 * sectionFields(providers, 'summary') // ['addresses', 'place_names', 'current_weather'] with the built-in sources
 */
export function sectionFields(providers: PlaceProviders, section: string): string[] {
  const fields = [...providers.values()].map((provider) => provider.field)
  if (section === allSection) return fields.map((f) => f.name)
  if (section === summarySection) return fields.filter((f) => f.summary === true).map((f) => f.name)
  return fields.filter((f) => f.section === section).map((f) => f.name)
}
