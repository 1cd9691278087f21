import {
  createTimedMemo,
  listSizeCheck,
  upstreamNotConfigured,
  UpstreamError,
  type UpstreamClient,
} from '@allmenning/core/source'
import { InvalidFeedError } from '../avinor/xml-document.js'
import { streamDatexSituations } from './datex-document.js'
import { readSituation, type TrafficSituation } from './datex-situation.js'
import {
  GET_SITUATION_PATH,
  vegvesenDatex,
  VEGVESEN_DATEX_PASSWORD_VARIABLE,
  VEGVESEN_DATEX_USERNAME_VARIABLE,
} from './datex-upstream.js'

/** The username and password Statens vegvesen issues for its DATEX server. */
export interface DatexCredentials {
  username: string
  password: string
}

/** Every situation of one snapshot, read. */
export interface SituationSnapshot {
  /** When Vegvesen published the snapshot, as it wrote it. */
  publicationTime: string | null
  situations: TrafficSituation[]
  /** Situations left out: without an id or records, tests and exercises, restricted ones. */
  leftOut: number
}

const MINUTE_MS = 60_000

/**
 * Reads a snapshot's XML into situations, a slice of the document at a time (see
 * {@link streamDatexSituations}); a body that is not a situation publication is a 502 naming
 * Vegvesen's DATEX server.
 *
 * @example
 * const snapshot = await readSituationSnapshot(client, xml)
 */
export async function readSituationSnapshot(
  client: { id: string; name: string },
  body: string,
): Promise<SituationSnapshot> {
  const situations: TrafficSituation[] = []
  let leftOut = 0
  try {
    const { texts } = await streamDatexSituations(body, (node) => {
      const situation = readSituation(node)
      if (situation) situations.push(situation)
      else leftOut++
    })
    return { publicationTime: texts['publicationTime'] ?? null, situations, leftOut }
  } catch (error) {
    if (error instanceof InvalidFeedError) throw new UpstreamError(client, 'invalid_response', error.reason)
    throw error
  }
}

/**
 * The situation snapshot of one `vegvesen()` source, shared by every request: fetched at most
 * every two minutes (the whole country is megabytes of XML), served up to three minutes more
 * while one background fetch renews it, and asked for with `If-Modified-Since` so an unchanged
 * snapshot costs a 304. Without credentials it is a 502 `upstream_not_configured` naming the
 * variable to set; credentials Vegvesen refuses are a 502 naming both variables. The password
 * (and username) travel only in the `Authorization` header, never in a URL or a message.
 *
 * @example
 * const feed = createSituationFeed({ username: 'me', password: 'secret' }) // either left out: not configured
 * const { situations } = await feed.get(ctx.upstream(vegvesenDatex))
 */
export function createSituationFeed(credentials: Partial<DatexCredentials>, now: () => number = Date.now) {
  const { username, password } = credentials
  const authorization =
    username && password ? `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}` : undefined
  let last: { lastModified: string; snapshot: SituationSnapshot } | undefined
  const memo = createTimedMemo<SituationSnapshot>({
    ttlMs: 2 * MINUTE_MS,
    staleMs: 3 * MINUTE_MS,
    errorTtlMs: MINUTE_MS,
    maxEntries: 1,
    now,
    // The whole country never has no situation at all; how many there are does change a lot.
    plausible: listSizeCheck({
      upstream: vegvesenDatex,
      what: 'situation snapshot',
      count: (s) => s.situations.length,
      keepShare: 0,
    }),
  })

  async function load(client: UpstreamClient, auth: string): Promise<SituationSnapshot> {
    const headers: Record<string, string> = { authorization: auth, accept: 'application/xml' }
    if (last) headers['if-modified-since'] = last.lastModified
    const res = await client.getText(GET_SITUATION_PATH, { headers, acceptStatus: [304, 401, 403] })
    if (res.status === 401 || res.status === 403) {
      throw new UpstreamError(
        client,
        'status',
        `refused the configured username and password (HTTP ${res.status}); check ${VEGVESEN_DATEX_USERNAME_VARIABLE} and ${VEGVESEN_DATEX_PASSWORD_VARIABLE}`,
        res.status,
      )
    }
    if (res.status === 304) {
      if (last) return last.snapshot
      throw new UpstreamError(
        client,
        'invalid_response',
        'answered 304 Not Modified to a request that was not conditional',
        304,
      )
    }
    const snapshot = await readSituationSnapshot(client, res.body)
    const lastModified = res.headers['last-modified']
    last = lastModified ? { lastModified, snapshot } : undefined
    return snapshot
  }

  return {
    get(client: UpstreamClient): Promise<SituationSnapshot> {
      if (!authorization) {
        const missing = username ? VEGVESEN_DATEX_PASSWORD_VARIABLE : VEGVESEN_DATEX_USERNAME_VARIABLE
        throw upstreamNotConfigured(
          client,
          missing,
          `needs a username and password (issued on registration at Statens vegvesen's DATEX page): set ${VEGVESEN_DATEX_USERNAME_VARIABLE} and ${VEGVESEN_DATEX_PASSWORD_VARIABLE}`,
        )
      }
      return memo.get('all', () => load(client, authorization))
    },
  }
}

/** The memoized situation snapshot of one `vegvesen()` source. */
export type SituationFeed = ReturnType<typeof createSituationFeed>
