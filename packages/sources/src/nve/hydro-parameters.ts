/** HydAPI's parameter id of water level (stage, `Vannstand`), in metres. */
export const WATER_LEVEL = 1000

/** HydAPI's parameter id of discharge (`Vannføring`), in m³/s. */
export const DISCHARGE = 1001

/**
 * English names of HydAPI's parameters, since `/Stations` names each series in Norwegian only.
 * 1000 and 1001 are the `parameterNameEng` seen in real `/Observations` answers; the others are
 * translations of the Norwegian names seen in real station lists.
 */
const englishNames: Record<number, string> = {
  [WATER_LEVEL]: 'Stage',
  [DISCHARGE]: 'Discharge',
  1003: 'Water temperature',
  1004: 'Reservoir volume',
  17: 'Air temperature',
}

/**
 * The English name of a HydAPI parameter, or null for one this source has no name for.
 *
 * @example
 * parameterNameEn(1001) // 'Discharge'
 */
export function parameterNameEn(parameter: number): string | null {
  return englishNames[parameter] ?? null
}
