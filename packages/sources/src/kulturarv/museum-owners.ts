import { XMLParser } from 'fast-xml-parser'
import { createTimedMemo, foldNorwegian, UpstreamError, type UpstreamClient } from '@allmenning/core/source'
import { DIMU_KEY_VARIABLE, DIMU_PATHS } from './kulturarv-upstreams.js'

/** One museum or collection in DigitaltMuseum (an "owner"). */
export interface MuseumOwner {
  /** The code searches are restricted with (`identifier.owner`), e.g. NF, NMK-A. */
  code: string
  name: string | null
  /** The owner this one belongs to, e.g. NMK for NMK-A. */
  parent: string | null
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  trimValues: true,
  ignoreDeclaration: true,
})

const textOf = (value: unknown): string | null => {
  if (typeof value === 'string') return value.trim() || null
  if (typeof value === 'number') return String(value)
  if (value && typeof value === 'object' && '#text' in value) return textOf((value as { '#text': unknown })['#text'])
  return null
}

/** Elements found anywhere under `node` by name, however deep (the owners list's wrapper is not documented). */
function elementsNamed(node: unknown, name: string, found: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(node)) {
    for (const item of node) elementsNamed(item, name, found)
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key !== name) {
        elementsNamed(value, name, found)
        continue
      }
      for (const item of Array.isArray(value) ? value : [value])
        if (item && typeof item === 'object') found.push(item as Record<string, unknown>)
    }
  }
  return found
}

/**
 * Reads DigitaltMuseum's owners list (XML: an `<owner>` per museum or collection, with its
 * `<identifier>`, its name and, for a collection, a `<parent>`). A body that is not XML, or
 * that lists no owner, is a 502 naming the upstream.
 *
 * @example
 * parseOwners('<owners><owner><identifier>NF</identifier><name>Norsk Folkemuseum</name></owner></owners>', client)
 * // [{ code: 'NF', name: 'Norsk Folkemuseum', parent: null }]
 */
export function parseOwners(xml: string, upstream: { id: string; name: string }): MuseumOwner[] {
  let document: unknown
  try {
    document = parser.parse(xml, true)
  } catch {
    throw new UpstreamError(upstream, 'invalid_response', 'sent an owners list that is not XML')
  }
  const owners = elementsNamed(document, 'owner')
    .map((o) => ({
      code: textOf(o['identifier']) ?? textOf(o['@_identifier']),
      name: textOf(o['name']) ?? textOf(o['@_name']),
      parent: textOf(o['parent']) ?? textOf(o['@_parent']),
    }))
    .filter((o): o is MuseumOwner => o.code !== null)
  if (owners.length === 0)
    throw new UpstreamError(upstream, 'invalid_response', 'sent an owners list without any owner')
  return owners
}

/**
 * A name folded for matching: lower case, Norwegian letters folded, spaces and punctuation dropped.
 *
 * @example
 * ownerKey('Nasjonalmuseet - Kunst') // 'nasjonalmuseetkunst'
 */
export const ownerKey = (text: string) => foldNorwegian(text.toLowerCase()).replace(/[^a-z0-9]/g, '')

const DAY_MS = 86_400_000

/** The statuses DigitaltMuseum is expected to refuse a key with (not seen: a wrong key's answer is not documented). */
export const REFUSALS = [401, 403]

/**
 * The 502 for a key DigitaltMuseum refused: names the variable to check, never the key.
 *
 * @example
 * throw refusedKey(client, 403)
 */
export function refusedKey(upstream: { id: string; name: string }, status: number): UpstreamError {
  return new UpstreamError(
    upstream,
    'status',
    `refused the configured API key (HTTP ${status}); check ${DIMU_KEY_VARIABLE}`,
    status,
  )
}

/**
 * DigitaltMuseum's owners, kept a day (a week when DigitaltMuseum is down): museums join
 * rarely. One memo per source instance; the key is sent as `api.key` and never shown.
 *
 * @example
 * const owners = createOwnerList()
 * const all = await owners.get(ctx.upstream(dimuApi), apiKey)
 */
export function createOwnerList() {
  const memo = createTimedMemo<MuseumOwner[]>({ ttlMs: DAY_MS, staleOnErrorMs: 7 * DAY_MS, errorTtlMs: 30_000 })
  return {
    get: (client: UpstreamClient, apiKey: string) =>
      memo.get('no', async () => {
        const query = { country: 'no', 'api.key': apiKey }
        const response = await client.getText(DIMU_PATHS.owners, { query, redact: [apiKey], acceptStatus: REFUSALS })
        if (REFUSALS.includes(response.status)) throw refusedKey(client, response.status)
        return parseOwners(response.body, client)
      }),
  }
}

/** What {@link createOwnerList} gives. */
export type OwnerList = ReturnType<typeof createOwnerList>
