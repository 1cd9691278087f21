import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { GatewayError } from './gateway-error.js'
import { readRequestBody } from './read-request-body.js'

describe('readRequestBody', () => {
  it('joins the chunks, text or bytes, into one body', async () => {
    const stream = new PassThrough()
    const read = readRequestBody(stream)
    stream.write(Buffer.from('{"a":'))
    stream.end('1}')
    expect(Buffer.from((await read)!).toString()).toBe('{"a":1}')
  })

  it('resolves undefined at once for a stream a body parser has consumed', async () => {
    const stream = new PassThrough()
    stream.end('x')
    stream.resume()
    await new Promise((resolve) => stream.once('end', resolve))
    expect(await readRequestBody(stream)).toBeUndefined()
  })

  it('refuses a body over the limit with the 413, and lets the rest flow on', async () => {
    const stream = new PassThrough()
    const read = readRequestBody(stream, 10)
    stream.write('0123456789')
    stream.write('X')
    const error = await read.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GatewayError)
    expect(error).toMatchObject({ status: 413, code: 'body_too_large' })
    // Still flowing: the rest of the body is drained, not left to block the connection.
    stream.end('more')
    await new Promise((resolve) => stream.once('end', resolve))
    expect(stream.listenerCount('data')).toBe(0)
  })

  it('rejects, rather than waiting for ever, when the stream closes before its end', async () => {
    const stream = new PassThrough()
    const read = readRequestBody(stream)
    stream.write('{"a":')
    stream.destroy()
    await expect(read).rejects.toThrow(/closed before its body ended/)
  })

  it('passes a stream error on', async () => {
    const stream = new PassThrough()
    const read = readRequestBody(stream)
    stream.destroy(new Error('reset'))
    await expect(read).rejects.toThrow('reset')
  })
})
