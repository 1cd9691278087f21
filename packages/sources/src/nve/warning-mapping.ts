import * as v from 'valibot'
import { osloLocalToIso } from '../shared/oslo-time.js'
import type { AvalancheWarning, HydroWarning, VarsomArea } from './upstream-shapes.js'

export const HAZARDS = ['flood', 'landslide', 'avalanche'] as const
export type Hazard = (typeof HAZARDS)[number]

// Varsom's own scales: flood and landslide 1 (green) to 4 (red), avalanche 1 (low) to 5
// (very high); 0 is "not assessed" in both, which Varsom answers where no one has looked.
const hydroLevels = ['not assessed', 'green', 'yellow', 'orange', 'red']
const avalancheLevels = ['not assessed', 'low', 'moderate', 'considerable', 'high', 'very high']

const areaOutput = v.object({ number: v.string(), name: v.nullable(v.string()) })

/** One warning as this source answers it, whatever the hazard. */
export const warningOutput = v.object({
  hazard: v.pipe(v.picklist(HAZARDS), v.description('flood, landslide or avalanche')),
  level: v.pipe(
    v.nullable(v.number()),
    v.description("Varsom's level: 1–4 (green–red) for flood and landslide, 1–5 for avalanche, 0 not assessed"),
  ),
  level_name: v.pipe(
    v.nullable(v.string()),
    v.description('The level in words: green/yellow/orange/red, or low … very high for avalanches'),
  ),
  id: v.pipe(
    v.nullable(v.string()),
    v.description("Varsom's id of the warning (forecast id, or RegId for avalanches)"),
  ),
  danger_type: v.pipe(v.nullable(v.string()), v.description('What the danger is, in the language asked for')),
  main_text: v.nullable(v.string()),
  warning_text: v.nullable(v.string()),
  advice_text: v.nullable(v.string()),
  consequence_text: v.nullable(v.string()),
  valid_from: v.pipe(
    v.nullable(v.string()),
    v.description('ISO 8601 with the Norwegian offset (Varsom sends local time without one)'),
  ),
  valid_to: v.nullable(v.string()),
  published_at: v.nullable(v.string()),
  next_warning_at: v.nullable(v.string()),
  region: v.pipe(
    v.nullable(v.object({ id: v.string(), name: v.nullable(v.string()), type: v.nullable(v.string()) })),
    v.description('The avalanche region (A or B) the warning is for; null for flood and landslide'),
  ),
  counties: v.array(areaOutput),
  municipalities: v.array(areaOutput),
  url: v.pipe(
    v.nullable(v.string()),
    v.description('The warning on varsom.no (flood and landslide; null for avalanches)'),
  ),
})
export type Warning = v.InferOutput<typeof warningOutput>

/** A Varsom level, sent as a number or a string, as a number; null when it is neither. */
export function levelNumber(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null
  const n = typeof value === 'number' ? value : Number(value.trim())
  return Number.isInteger(n) && n >= 0 ? n : null
}

const idText = (value: number | string | null | undefined) =>
  value === null || value === undefined || value === '' ? null : String(value)

// On a green day with no warning issued, Varsom fills Id, EventId and MasterId with "xxx": no forecast to link to.
const forecastId = (value: number | string | null | undefined) => {
  const id = idText(value)
  return id === null || /^x+$/i.test(id.trim()) ? null : id
}

/** A county (2 digits) or municipality (4 digits) number, which Varsom sends as a string or a number without its leading zero. */
export function areaNumber(value: number | string | null | undefined, digits: 2 | 4): string | null {
  const text = idText(value)?.trim()
  return text && /^\d+$/.test(text) ? text.padStart(digits, '0') : null
}

function areas(list: VarsomArea[] | null | undefined, digits: 2 | 4) {
  return (list ?? []).flatMap((a) => {
    const number = areaNumber(a.Id, digits)
    // Varsom sometimes names an area by its own number; that is no name.
    return number ? [{ number, name: a.Name && a.Name !== number && a.Name !== idText(a.Id) ? a.Name : null }] : []
  })
}

/**
 * A flood or landslide warning of Varsom as this source answers it.
 *
 * @example
 * hydroToWarning('flood', { Id: '580123', ActivityLevel: '2', ValidFrom: '2026-01-14T07:00:00' })
 * // { hazard: 'flood', level: 2, level_name: 'yellow', valid_from: '2026-01-14T07:00:00+01:00', ... }
 */
export function hydroToWarning(hazard: 'flood' | 'landslide', w: HydroWarning): Warning {
  const level = levelNumber(w.ActivityLevel)
  const id = forecastId(w.Id)
  return {
    hazard,
    level,
    level_name: level === null ? null : (hydroLevels[level] ?? null),
    id,
    danger_type: w.DangerTypeName ?? null,
    main_text: w.MainText ?? null,
    warning_text: w.WarningText ?? null,
    advice_text: w.AdviceText ?? null,
    consequence_text: w.ConsequenceText ?? null,
    valid_from: osloLocalToIso(w.ValidFrom),
    valid_to: osloLocalToIso(w.ValidTo),
    published_at: osloLocalToIso(w.PublishTime),
    next_warning_at: osloLocalToIso(w.NextWarningTime),
    region: null,
    counties: areas(w.CountyList, 2),
    municipalities: areas(w.MunicipalityList, 4),
    url: id
      ? `https://www.varsom.no/en/flood-and-landslide-warning-service/forecastid/${encodeURIComponent(id)}`
      : null,
  }
}

/**
 * An avalanche warning of Varsom (Simple or Detail) as this source answers it.
 *
 * @example
 * avalancheToWarning({ RegId: 412345, RegionId: 3015, RegionName: 'Svartisen', RegionTypeName: 'A', DangerLevel: '3' })
 * // { hazard: 'avalanche', level: 3, level_name: 'considerable', region: { id: '3015', name: 'Svartisen', type: 'A' }, ... }
 */
export function avalancheToWarning(w: AvalancheWarning): Warning {
  const level = levelNumber(w.DangerLevel)
  const regionId = idText(w.RegionId)
  return {
    hazard: 'avalanche',
    level,
    level_name: level === null ? null : (avalancheLevels[level] ?? null),
    id: idText(w.RegId),
    danger_type: w.AvalancheDanger ?? null,
    main_text: w.MainText ?? null,
    warning_text: null,
    advice_text: null,
    consequence_text: null,
    valid_from: osloLocalToIso(w.ValidFrom),
    valid_to: osloLocalToIso(w.ValidTo),
    published_at: osloLocalToIso(w.PublishTime),
    next_warning_at: osloLocalToIso(w.NextWarningTime),
    region: regionId ? { id: regionId, name: w.RegionName ?? null, type: w.RegionTypeName ?? null } : null,
    counties: areas(w.CountyList, 2),
    municipalities: areas(w.MunicipalityList, 4),
    // varsom.no's address of one region's bulletin is not documented; none is made up.
    url: null,
  }
}
