import { describe, expect, it } from 'vitest'
import { GatewayError } from '@allmenning/core'
import { MAX_UPSTREAM_PAGE, upstreamPageFor } from './census-page-window.js'

describe('upstreamPageFor', () => {
  it('reads a window on page boundaries as that page', () => {
    expect(upstreamPageFor(0, 50)).toEqual({ size: 50, page: 1, skip: 0 })
    expect(upstreamPageFor(150, 50)).toEqual({ size: 50, page: 4, skip: 0 })
  })

  it('reads any other window from one larger page that holds it whole', () => {
    for (const [offset, limit] of [
      [10, 50],
      [101, 100],
      [7, 3],
      [999, 100],
      [1234, 17],
    ] as const) {
      const { size, page, skip } = upstreamPageFor(offset, limit)
      expect(size).toBeGreaterThanOrEqual(limit)
      expect((page - 1) * size + skip).toBe(offset)
      expect(skip + limit).toBeLessThanOrEqual(size)
    }
  })

  it('refuses a window no page up to the largest holds, naming offset', () => {
    const refused = (() => {
      try {
        return upstreamPageFor(MAX_UPSTREAM_PAGE * 3 + 1, MAX_UPSTREAM_PAGE)
      } catch (error) {
        return error
      }
    })()
    expect(refused).toBeInstanceOf(GatewayError)
    expect(refused).toMatchObject({ status: 400, code: 'invalid_parameter', details: [{ parameter: 'offset' }] })
  })
})
