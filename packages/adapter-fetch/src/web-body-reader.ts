import { bodyText, maxRequestBodyBytes } from '@allmenning/core/adapter'

/**
 * A lazy reader of a Web `Request`'s body for `GatewayRequest.readBody`: the bytes as sent
 * (the core decides what their Content-Type and charset allow, as it does for every adapter
 * that hands it raw bytes), read from the stream only until they pass `limitBytes`, so a
 * client cannot make the server hold more. Past the limit it rejects with the core's own 413
 * `body_too_large`, the same as `readRequestBody` through Express or Koa. A body another
 * handler already read (Hono's `c.req.json()`, say) is `undefined` at once, as a Node stream a
 * body parser drained is.
 *
 * @example
 * const post = new Request('https://data.example.no/api/v1/feedback', { method: 'POST', body: '{}' })
 * const readBody = webBodyReader(post)
 * await readBody() // Uint8Array [123, 125]
 */
export function webBodyReader(
  request: Request,
  limitBytes = maxRequestBodyBytes,
): () => Promise<Uint8Array | undefined> {
  return async () => {
    const stream = request.body
    if (stream === null || request.bodyUsed || stream.locked) return undefined
    const reader = stream.getReader()
    const chunks: Uint8Array[] = []
    let size = 0
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.byteLength
      if (size > limitBytes) {
        // Stop reading at the limit; the runtime throws away the rest of what the client sends.
        reader.cancel().catch(() => {})
        refuseOversized(joinChunks(chunks, size), limitBytes)
      }
    }
    return joinChunks(chunks, size)
  }
}

/** The core's own check refuses bytes past the limit with the 413 every adapter answers. */
function refuseOversized(bytes: Uint8Array, limitBytes: number): never {
  bodyText(bytes, limitBytes)
  throw new RangeError(`The request body is larger than ${limitBytes} bytes`)
}

function joinChunks(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!
  const joined = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    joined.set(chunk, offset)
    offset += chunk.byteLength
  }
  return joined
}
