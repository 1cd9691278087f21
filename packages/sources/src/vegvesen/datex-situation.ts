import { isKnownPosition } from '../shared/nearest.js'
import type { Wgs84Point } from '../shared/wgs84-point.js'
import type { XmlNode } from './datex-document.js'

/** DATEX II's severities, most severe first. */
export const SEVERITIES = ['highest', 'high', 'medium', 'low', 'lowest', 'none'] as const

export type Severity = (typeof SEVERITIES)[number]

/** When one situation record applies, as its `validity` says. */
export interface RecordValidity {
  /** `active`, `suspended`, `planned` or `definedByValidityTimeSpec` (then the times decide); null when absent. */
  status: string | null
  startMs: number | null
  endMs: number | null
}

/** One DATEX II situation, read from its records. */
export interface TrafficSituation {
  id: string
  /** The first record's type (its `xsi:type` without the prefix): `MaintenanceWorks`, `Accident`, … */
  type: string | null
  /** The records' own kinds, in order and once each: `roadClosed`, `laneClosures`, `roadworks`, … */
  subTypes: string[]
  description: string | null
  location: string | null
  road: string | null
  roadName: string | null
  severity: Severity | null
  /** Where a map shows it: the first `coordinatesForDisplay`, else the first coordinates given. */
  display: Wgs84Point | null
  /** Every position of its locations (a road stretch has its ends and display point), to measure distance by. */
  points: Wgs84Point[]
  records: RecordValidity[]
  startTime: string | null
  endTime: string | null
  lastUpdate: string | null
}

/** Where a situation stands at one instant. */
export type SituationState = 'active' | 'planned' | 'ended' | 'suspended'

/** Texts are published in Norwegian, sometimes also in English; Norwegian is preferred, as Vegvesen's terms ask. */
const LANGUAGES = ['nb', 'no', 'nob', 'nor', 'nn', 'nno', 'en', 'eng']

const children = (node: XmlNode, name: string) => node.children.filter((c) => c.name === name)
const child = (node: XmlNode | undefined, name: string) => node?.children.find((c) => c.name === name)
const textOf = (node: XmlNode | undefined) => (node && node.text !== '' ? node.text : null)

/** The elements named `name` below `node`, in document order. */
function descendants(node: XmlNode, name: string, found: XmlNode[] = []): XmlNode[] {
  for (const c of node.children) {
    if (c.name === name) found.push(c)
    descendants(c, name, found)
  }
  return found
}

/** The first element named `name` below `node`, in document order. */
function first(node: XmlNode, name: string): XmlNode | undefined {
  for (const c of node.children) {
    const found = c.name === name ? c : first(c, name)
    if (found) return found
  }
  return undefined
}

/** The text of a `MultilingualString` (`<values><value lang="no">…`), in the preferred language. */
function multilingual(node: XmlNode | undefined): string | null {
  let best: XmlNode | undefined
  for (const value of node ? descendants(node, 'value') : []) {
    if (value.text !== '' && (!best || rank(value) < rank(best))) best = value
  }
  return best?.text ?? null
}

function rank(value: XmlNode): number {
  const at = LANGUAGES.indexOf((value.attributes['lang'] ?? '').toLowerCase())
  // A value without a language is taken as the publication's own (Norwegian); unknown ones last.
  return value.attributes['lang'] === undefined ? 0.5 : at === -1 ? LANGUAGES.length : at
}

function positionOf(node: XmlNode): Wgs84Point | null {
  const lat = textOf(child(node, 'latitude'))
  const lon = textOf(child(node, 'longitude'))
  if (lat === null || lon === null) return null
  const position = { lat: Number(lat), lon: Number(lon) }
  return isKnownPosition(position) ? position : null
}

/** Every position given below `node` (an element with `latitude` and `longitude` children), in document order. */
function positionsUnder(node: XmlNode, found: { position: Wgs84Point; forDisplay: boolean }[] = []) {
  const position = positionOf(node)
  if (position) found.push({ position, forDisplay: node.name === 'coordinatesForDisplay' })
  for (const c of node.children) positionsUnder(c, found)
  return found
}

const instant = (text: string | null) => {
  const ms = text === null ? NaN : Date.parse(text)
  return Number.isNaN(ms) ? null : ms
}

/** The text of the earliest (or latest) of some times, as the publication wrote it. */
function extreme(times: (string | null)[], latest: boolean): string | null {
  let found: { text: string; ms: number } | null = null
  for (const text of times) {
    const ms = instant(text)
    if (ms === null) continue
    if (!found || (latest ? ms > found.ms : ms < found.ms)) found = { text: text!, ms }
  }
  return found?.text ?? null
}

const severityOf = (text: string | null): Severity | null =>
  (SEVERITIES as readonly string[]).includes(text ?? '') ? (text as Severity) : null

/** The kinds a record states of itself: its direct children named `…Type` (`roadOrCarriagewayOrLaneManagementType`), but not `commentType`. */
const kindsOf = (record: XmlNode) =>
  record.children.filter((c) => c.name.endsWith('Type') && c.name !== 'commentType' && c.text !== '').map((c) => c.text)

/**
 * Whether a situation may be shown to the public: a situation marked as a test or exercise, or
 * restricted to authorities, is not.
 */
function isPublic(situation: XmlNode): boolean {
  const header = child(situation, 'headerInformation')
  const status = textOf(child(header, 'informationStatus'))
  const confidentiality = textOf(child(header, 'confidentiality'))
  return (status === null || status === 'real') && (confidentiality === null || confidentiality === 'noRestriction')
}

/**
 * Reads one `situation` element: its records' type and kinds, Norwegian texts, road, severity,
 * validity and positions. Undefined for a situation without an id or records, a test or
 * exercise, or one restricted to authorities.
 *
 * @example
 * const situation = readSituation(node) // { id: 'NPRA_HBT_20-11-2026.4101', type: 'MaintenanceWorks', subTypes: ['roadworks', 'roadClosed', …], … }
 */
export function readSituation(situation: XmlNode): TrafficSituation | undefined {
  const id = situation.attributes['id']?.trim()
  const records = children(situation, 'situationRecord')
  if (!id || records.length === 0 || !isPublic(situation)) return undefined
  const locations = records.flatMap((r) => children(r, 'locationReference'))
  const found = locations.flatMap((l) => positionsUnder(l))
  const comments = records.flatMap((r) =>
    children(r, 'generalPublicComment').map((g) => multilingual(child(g, 'comment'))),
  )
  const validity = records.map((r) => {
    const v = child(r, 'validity')
    const span = child(v, 'validityTimeSpecification')
    return {
      status: textOf(child(v, 'validityStatus')),
      start: textOf(child(span, 'overallStartTime')),
      end: textOf(child(span, 'overallEndTime')),
    }
  })
  const severities = [textOf(child(situation, 'overallSeverity')), ...records.map((r) => textOf(child(r, 'severity')))]
  const overall = severityOf(severities[0]!)
  const worst = severities
    .map(severityOf)
    .filter((s) => s !== null)
    .sort((a, b) => SEVERITIES.indexOf(a) - SEVERITIES.indexOf(b))[0]
  const textIn = (name: string) => locations.map((l) => first(l, name)).find((n) => n !== undefined)
  return {
    id,
    type: localTypeOf(records[0]!),
    subTypes: [...new Set(records.flatMap(kindsOf))],
    description: [...new Set(comments.filter((c) => c !== null))].join(' ') || null,
    location: multilingual(textIn('locationDescription')) ?? multilingual(textIn('areaName')),
    road: textOf(textIn('roadNumber')),
    roadName: textOf(textIn('roadName')),
    severity: overall ?? worst ?? null,
    display: (found.find((f) => f.forDisplay) ?? found[0])?.position ?? null,
    points: found.map((f) => f.position),
    records: validity.map((v) => ({ status: v.status, startMs: instant(v.start), endMs: instant(v.end) })),
    startTime: extreme(
      validity.map((v) => v.start),
      false,
    ),
    // Open-ended as soon as one record is.
    endTime: validity.some((v) => instant(v.end) === null)
      ? null
      : extreme(
          validity.map((v) => v.end),
          true,
        ),
    lastUpdate: extreme(
      [
        textOf(child(situation, 'situationVersionTime')),
        ...records.map((r) => textOf(child(r, 'situationRecordVersionTime'))),
      ],
      true,
    ),
  }
}

function localTypeOf(record: XmlNode): string | null {
  const type = record.attributes['type']
  return type ? type.slice(type.indexOf(':') + 1) : null
}

function recordState(record: RecordValidity, nowMs: number): SituationState {
  if (record.status === 'suspended') return 'suspended'
  if (record.status === 'active') return 'active'
  if (record.endMs !== null && record.endMs <= nowMs) return 'ended'
  if (record.status === 'planned' || (record.startMs !== null && record.startMs > nowMs)) return 'planned'
  return 'active'
}

/**
 * Where a situation stands at `nowMs`: active when one of its records is (a record marked
 * `active` is, whatever its times say; one `definedByValidityTimeSpec` between its start and
 * end), else planned when one is yet to come, else suspended when one is, else ended.
 *
 * @example
 * const situation = readSituation(node)
 * if (situation) situationState(situation, Date.now()) // 'active'
 */
export function situationState(situation: TrafficSituation, nowMs: number): SituationState {
  const states = new Set(situation.records.map((r) => recordState(r, nowMs)))
  for (const state of ['active', 'planned', 'suspended'] as const) if (states.has(state)) return state
  return 'ended'
}
