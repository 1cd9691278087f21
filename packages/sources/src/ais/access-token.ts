import * as v from 'valibot'
import { checkUpstreamShape, createTimedMemo, UpstreamError, type UpstreamClient } from '@allmenning/core/source'
import { BARENTSWATCH_CLIENT_ID_VARIABLE, BARENTSWATCH_CLIENT_SECRET_VARIABLE } from './barentswatch-upstreams.js'

export const TOKEN_PATH = '/connect/token'

/** A BarentsWatch API client: its id looks like `user@example.com:clientname`. */
export interface BarentswatchClient {
  clientId: string
  clientSecret: string
}

const tokenAnswer = v.looseObject({
  access_token: v.pipe(v.string(), v.minLength(1)),
  token_type: v.optional(v.string()),
})
const oauthError = v.looseObject({ error: v.string(), error_description: v.optional(v.string()) })

/**
 * Tokens are said to live an hour (unverified); this renews well before. A token that expires
 * sooner is caught by the 401 it causes, which drops it and asks once more.
 */
const TOKEN_TTL_MS = 30 * 60_000
/** A refused client is not asked again for this long, so bad credentials do not hammer the server. */
const REFUSED_TTL_MS = 60_000

/**
 * The access token of one BarentsWatch client, fetched with the client-credentials grant
 * (scope `ais`), shared by every call and renewed every half hour.
 *
 * @example
 * const tokens = createAccessTokens({ clientId, clientSecret })
 * const token = await tokens.get(() => ctx.upstream(barentswatchId))
 */
export function createAccessTokens(client: BarentswatchClient) {
  const memo = createTimedMemo<string>({ ttlMs: TOKEN_TTL_MS, errorTtlMs: REFUSED_TTL_MS, maxEntries: 1 })

  async function fetchToken(id: UpstreamClient): Promise<string> {
    const form = new URLSearchParams({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope: 'ais',
      grant_type: 'client_credentials',
    })
    const res = await id.postJson(TOKEN_PATH, form, { acceptStatus: [400, 401] })
    if (res.status !== 200) {
      const refusal = v.safeParse(oauthError, res.body)
      const reason = refusal.success ? refusal.output.error : `HTTP ${res.status}`
      throw new UpstreamError(
        id,
        'status',
        `refused the configured client credentials (${reason}); check ${BARENTSWATCH_CLIENT_ID_VARIABLE} and ${BARENTSWATCH_CLIENT_SECRET_VARIABLE}`,
        res.status,
      )
    }
    return checkUpstreamShape(id, tokenAnswer, res.body, 'the token request').access_token
  }

  return {
    /** The token; `id` gives the identity service's client, asked for only when a token must be fetched. */
    get: (id: () => UpstreamClient) => memo.get('token', () => fetchToken(id())),
    /** Forgets the token after the API refused it. */
    drop: () => memo.delete('token'),
  }
}

/** The token cache of one `ais()` source. */
export type AccessTokens = ReturnType<typeof createAccessTokens>
