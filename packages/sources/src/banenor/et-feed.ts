import { createTimedMemo, upstreamNotConfigured, UpstreamError, type UpstreamClient } from '@allmenning/core/source'
import { InvalidFeedError } from '../avinor/xml-document.js'
import { BANENOR_SUBSCRIPTION_KEY_VARIABLE, DEFAULT_REQUESTOR_REF, SIRI_ET_PATH } from './banenor-upstream.js'
import { readEstimatedTimetable, type EstimatedTimetable } from './siri-et-document.js'

/** How far ahead the one shared answer reaches: the longest `minutes_ahead` a board may ask for. */
export const PREVIEW_MINUTES = 120

/** One answer of the whole network, with when it was fetched. */
export interface EtSnapshot extends EstimatedTimetable {
  fetchedAt: number
}

const SECOND_MS = 1000

/** Characters XML text may not hold as they are. */
const escapeXml = (value: string) =>
  value.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!)

/**
 * The SIRI 2.1 ServiceRequest for every train's estimated timetable `PREVIEW_MINUTES` ahead,
 * in the form Bane NOR's clients send it (no line, operator or stop filter: one answer serves
 * every station's board).
 *
 * @example
 * estimatedTimetableRequest('allmenning', new Date('2026-11-28T10:00:00Z'))
 */
export function estimatedTimetableRequest(requestorRef: string, at: Date): string {
  const timestamp = at.toISOString()
  return `<?xml version="1.0" encoding="UTF-8"?>
<Siri xmlns="http://www.siri.org.uk/siri" version="2.1">
  <ServiceRequest>
    <RequestTimestamp>${timestamp}</RequestTimestamp>
    <RequestorRef>${escapeXml(requestorRef)}</RequestorRef>
    <EstimatedTimetableRequest version="2.1">
      <RequestTimestamp>${timestamp}</RequestTimestamp>
      <PreviewInterval>PT${PREVIEW_MINUTES}M</PreviewInterval>
    </EstimatedTimetableRequest>
  </ServiceRequest>
</Siri>
`
}

/** What the feed needs from the deployment. */
export interface BanenorCredentials {
  subscriptionKey?: string | undefined
  requestorRef?: string | undefined
}

/**
 * The network's estimated timetable, shared by every board of one `banenor()` source: asked
 * for at most every 30 seconds (a live board needs no fresher, and one answer serves every
 * station), served up to 30 seconds more while one background call renews it, and a failure
 * remembered for 15 seconds so a failing Bane NOR is not asked by every request. Without a
 * key it is a 502 `upstream_not_configured` naming the variable; a key Bane NOR refuses is a
 * 502 naming it too. The key travels only in the `Ocp-Apim-Subscription-Key` header.
 *
 * @example
 * const feed = createEtFeed({ subscriptionKey: 'k' })
 * const { journeys } = await feed.get(ctx.upstream(banenorSiriEt))
 */
export function createEtFeed(credentials: BanenorCredentials, now: () => number = Date.now) {
  const key = credentials.subscriptionKey?.trim() || undefined
  const requestorRef = credentials.requestorRef?.trim() || DEFAULT_REQUESTOR_REF
  const memo = createTimedMemo<EtSnapshot>({
    ttlMs: 30 * SECOND_MS,
    staleMs: 30 * SECOND_MS,
    errorTtlMs: 15 * SECOND_MS,
    maxEntries: 1,
    now,
  })

  async function load(client: UpstreamClient, subscriptionKey: string): Promise<EtSnapshot> {
    const res = await client.postText(SIRI_ET_PATH, estimatedTimetableRequest(requestorRef, new Date(now())), {
      contentType: 'application/xml',
      headers: { 'ocp-apim-subscription-key': subscriptionKey, accept: 'application/xml' },
      acceptStatus: [401, 403],
    })
    if (res.status === 401 || res.status === 403) {
      throw new UpstreamError(
        client,
        'status',
        `refused the configured subscription key (HTTP ${res.status}); check ${BANENOR_SUBSCRIPTION_KEY_VARIABLE}`,
        res.status,
      )
    }
    try {
      return { ...(await readEstimatedTimetable(res.body)), fetchedAt: now() }
    } catch (error) {
      if (error instanceof InvalidFeedError) throw new UpstreamError(client, 'invalid_response', error.reason)
      throw error
    }
  }

  return {
    /** Whether a key was given: without one every call is a 502 upstream_not_configured. */
    configured: key !== undefined,
    get(client: UpstreamClient): Promise<EtSnapshot> {
      if (!key) {
        throw upstreamNotConfigured(
          client,
          BANENOR_SUBSCRIPTION_KEY_VARIABLE,
          `needs a subscription key from Bane NOR's API portal: set ${BANENOR_SUBSCRIPTION_KEY_VARIABLE}`,
        )
      }
      return memo.get('network', () => load(client, key))
    },
  }
}

/** The memoized network timetable of one `banenor()` source. */
export type EtFeed = ReturnType<typeof createEtFeed>
