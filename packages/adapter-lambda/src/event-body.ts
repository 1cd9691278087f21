/**
 * A lazy body reader for an event body: bytes when AWS base64-encoded it (binary or
 * compressed content), the text as is otherwise, `undefined` when there is none.
 *
 * @example
 * const readBody = eventBodyReader(event.body, event.isBase64Encoded)
 */
export function eventBodyReader(
  body: string | null | undefined,
  isBase64Encoded: boolean | undefined,
): () => Promise<string | Uint8Array | undefined> {
  return async () => {
    if (body === null || body === undefined) return undefined
    return isBase64Encoded ? new Uint8Array(Buffer.from(body, 'base64')) : body
  }
}
