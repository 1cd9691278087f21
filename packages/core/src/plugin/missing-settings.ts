import type { SourceDefinition } from './define-source.js'

/**
 * The settings each operation of a source still lacks in this deployment, by operation name;
 * an operation that lacks none is not in the map.
 *
 * @example
 * missingSettings(source, ['find_charging_stations']).get('find_charging_stations') // ['ALLMENNING_NOBIL_API_KEY'] without a key
 */
export function missingSettings(source: SourceDefinition, operationNames: readonly string[]): Map<string, string[]> {
  const missing = new Map<string, string[]>()
  for (const { configure, operations } of source.notConfigured ?? []) {
    for (const name of operations ?? operationNames) missing.set(name, [...(missing.get(name) ?? []), configure])
  }
  return missing
}
