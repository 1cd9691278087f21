import { describe, expect, it } from 'vitest'
import { GatewayError } from '@allmenning/core'
import { fetchWindow, type UpstreamPage } from './upstream-pages.js'

/** An upstream of `count` numbered hits that pages from `first`, recording the pages asked for. */
function upstream(count: number, first: 0 | 1, withTotal = true) {
  const asked: [number, number][] = []
  const all = Array.from({ length: count }, (_, i) => i)
  const fetchPage = async (page: number, size: number): Promise<UpstreamPage<number>> => {
    asked.push([page, size])
    const from = (page - first) * size
    return { items: all.slice(from, from + size), total: withTotal ? count : undefined }
  }
  return { asked, fetchPage }
}

describe('fetchWindow', () => {
  it('asks one page on a page boundary and two across one', async () => {
    const u = upstream(12, 1)
    expect(await fetchWindow({ limit: 5, offset: 5 }, { first: 1 }, u.fetchPage)).toEqual({
      items: [5, 6, 7, 8, 9],
      page: { hasMore: true, total: 12 },
    })
    expect(await fetchWindow({ limit: 5, offset: 7 }, { first: 1 }, u.fetchPage)).toEqual({
      items: [7, 8, 9, 10, 11],
      page: { hasMore: false, total: 12 },
    })
    expect(u.asked).toEqual([
      [2, 5],
      [2, 5],
      [3, 5],
    ])
  })

  it('skips the second page when the first was already short', async () => {
    const u = upstream(8, 0)
    expect(await fetchWindow({ limit: 5, offset: 6 }, { first: 0 }, u.fetchPage)).toEqual({
      items: [6, 7],
      page: { hasMore: false, total: 8 },
    })
    expect(u.asked).toEqual([[1, 5]])
  })

  it('guesses hasMore from a full page when the upstream gives no total', async () => {
    const u = upstream(10, 0, false)
    expect((await fetchWindow({ limit: 5, offset: 0 }, { first: 0 }, u.fetchPage)).page).toEqual({ hasMore: true })
    expect((await fetchWindow({ limit: 5, offset: 7 }, { first: 0 }, u.fetchPage)).page).toEqual({ hasMore: false })
  })

  it('refuses a window past the last page the upstream serves', async () => {
    const u = upstream(10, 1)
    await expect(fetchWindow({ limit: 10, offset: 4990 }, { first: 1, last: 500 }, u.fetchPage)).resolves.toMatchObject(
      { items: [] },
    )
    await expect(fetchWindow({ limit: 10, offset: 4991 }, { first: 1, last: 500 }, u.fetchPage)).rejects.toBeInstanceOf(
      GatewayError,
    )
    await expect(fetchWindow({ limit: 10, offset: 5000 }, { first: 1, last: 500 }, u.fetchPage)).rejects.toMatchObject({
      status: 400,
      code: 'invalid_parameter',
    })
  })
})
