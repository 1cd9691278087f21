import { gzipSync } from 'node:zlib'
import { encodeText, type Charset } from './encode-text.js'

/** What a fake route answers: status, headers and the exact body bytes, or a way of not answering. */
export interface FakeReply {
  /** 200 when left out. */
  status?: number
  headers?: Record<string, string>
  /** Sent as is: a string goes out as UTF-8, a Buffer byte for byte. */
  body?: string | Buffer
  /** Wait this long before answering, to play a slow upstream. */
  delayMs?: number
  /** Drop the connection without answering, to play a broken upstream. */
  destroy?: boolean
  /** Never answer (until the fake is closed), to play an upstream that hangs. */
  hang?: boolean
}

/** How a body is put on the wire. */
export interface BodyOptions {
  status?: number
  /** Extra headers, or headers that replace the ones the helper sets. */
  headers?: Record<string, string>
  /** The character set the text is encoded in; UTF-8 unless given. */
  charset?: Charset
  /** A UTF-8 byte order mark before the body. */
  bom?: boolean
  /** Compress the body and say so with `Content-Encoding: gzip`. */
  gzip?: boolean
  /**
   * The exact Content-Type header, when the upstream writes it its own way
   * (`application/json;charset=UTF-8`, or none of a charset at all).
   */
  contentType?: string
}

const charsetLabels: Record<Charset, string> = {
  'utf-8': 'utf-8',
  'iso-8859-1': 'ISO-8859-1',
  'windows-1252': 'windows-1252',
}

function textReply(text: string, mediaType: string, options: BodyOptions = {}): FakeReply {
  const charset = options.charset ?? 'utf-8'
  const bytes = encodeText(text, charset, { bom: options.bom ?? false })
  return bytesReply(bytes, options.contentType ?? `${mediaType}; charset=${charsetLabels[charset]}`, options)
}

function bytesReply(bytes: Buffer, contentType: string, options: BodyOptions = {}): FakeReply {
  const body = options.gzip ? gzipSync(bytes) : bytes
  return {
    status: options.status ?? 200,
    headers: {
      'content-type': contentType,
      ...(options.gzip ? { 'content-encoding': 'gzip' } : {}),
      ...options.headers,
    },
    body,
  }
}

/**
 * Builds the answers of a fake upstream with real content types and encodings, so a test says
 * what the upstream sends in one line.
 *
 * @example
 * startFakeUpstream({
 *   '/compact': () => fakeReply.json(forecast),                                        // application/json; charset=utf-8
 *   '/XmlFeed/v1.0': () => fakeReply.xml(feed, { charset: 'iso-8859-1' }),             // Latin-1 bytes, as Avinor sends
 *   '/enheter/lastned': () => fakeReply.json(units, { gzip: true }),                   // Content-Encoding: gzip
 *   '/status': () => fakeReply.status(503, 'Service Unavailable'),
 *   '/slow': () => fakeReply.slow(fakeReply.json([]), 2000),
 *   '/stuck': () => fakeReply.hang(),
 * })
 */
export const fakeReply = {
  /** JSON: a value is serialized; a string is sent as the exact text given (for recorded bodies). */
  json(value: unknown, options: BodyOptions = {}): FakeReply {
    const text = typeof value === 'string' ? value : JSON.stringify(value)
    return textReply(text, 'application/json', options)
  },
  /** XML text; pass `charset: 'iso-8859-1'` for upstreams that send Latin-1. */
  xml(text: string, options: BodyOptions = {}): FakeReply {
    return textReply(text, 'text/xml', options)
  },
  /** An HTML page: a decision page to scrape, or the maintenance page a proxy answers with. */
  html(text: string, options: BodyOptions = {}): FakeReply {
    return textReply(text, 'text/html', options)
  },
  /** Any text type: `text/csv`, `text/plain`, ... */
  text(text: string, mediaType = 'text/plain', options: BodyOptions = {}): FakeReply {
    return textReply(text, mediaType, options)
  },
  /** Bytes as they are (an archive, a gzip file), with their content type. */
  bytes(bytes: Buffer, contentType: string, options: BodyOptions = {}): FakeReply {
    return bytesReply(bytes, contentType, options)
  },
  /** An error status with a short text body, as most services answer one. */
  status(status: number, text = '', options: BodyOptions = {}): FakeReply {
    return textReply(text, 'text/plain', { ...options, status })
  },
  /** The same answer, after a pause. */
  slow(reply: FakeReply, delayMs: number): FakeReply {
    return { ...reply, delayMs }
  },
  /** No answer at all: the request waits until the caller gives up. */
  hang(): FakeReply {
    return { hang: true }
  },
  /** The connection is closed without an answer. */
  drop(): FakeReply {
    return { destroy: true }
  },
}
