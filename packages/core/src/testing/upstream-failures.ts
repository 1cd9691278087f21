import type { ErrorCode } from '@allmenning/core'
import { fakeReply, type FakeReply } from './fake-reply.js'

/** The ways `checkSource` breaks every upstream of a source, one at a time. */
export type UpstreamFailureMode = 'status' | 'timeout' | 'drop' | 'html'

/** One way an upstream fails: what it does, and the 502 code the gateway must answer with. */
export interface UpstreamFailurePlay {
  /** How a sentence names it: `answers HTTP 503`. */
  what: string
  reply: FakeReply
  code: ErrorCode
}

/**
 * The failures every real upstream has shown: an error status, no answer in time, a dropped
 * connection, and the HTML maintenance page a proxy answers with status 200 where data was due.
 */
export const upstreamFailurePlays: Record<UpstreamFailureMode, UpstreamFailurePlay> = {
  status: { what: 'answers HTTP 503', reply: fakeReply.status(503, 'Service Unavailable'), code: 'upstream_error' },
  timeout: { what: 'does not answer in time', reply: fakeReply.hang(), code: 'upstream_timeout' },
  drop: { what: 'drops the connection', reply: fakeReply.drop(), code: 'upstream_unavailable' },
  html: {
    what: 'answers an HTML maintenance page with status 200',
    reply: fakeReply.html(
      '<!DOCTYPE html><html><head><title>Vedlikehold</title></head><body><h1>Tjenesten er midlertidig utilgjengelig</h1></body></html>',
    ),
    code: 'upstream_invalid_response',
  },
}
