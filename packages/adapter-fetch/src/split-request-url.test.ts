import { describe, expect, it } from 'vitest'
import { splitRequestUrl } from './split-request-url.js'

describe('splitRequestUrl', () => {
  it('keeps the raw query: repeated keys, escapes, plus signs and empty pairs as sent', () => {
    const query = 'area=NO1&area=NO2&q=a%26b%3Dc&navn=%C3%A6%C3%B8%C3%A5&plus=a+b&&bad=%E0%A4%A'
    const url = `http://127.0.0.1:8080/data/api/v1/kilder?${query}`
    expect(splitRequestUrl(url)).toEqual({ path: '/data/api/v1/kilder', query })
  })

  it('keeps the path percent-encoded, an encoded slash and a malformed escape included', () => {
    const encodedSlash = '/api/v1/kilder/statnett%2Fget_physical_flow'
    expect(splitRequestUrl(`https://x.no${encodedSlash}`).path).toBe(encodedSlash)
    expect(splitRequestUrl('https://x.no/api/v1/kilder/%E0%A4%A?').path).toBe('/api/v1/kilder/%E0%A4%A')
  })

  it('has an empty query without "?" or after a lone "?", and drops a fragment', () => {
    expect(splitRequestUrl('https://x.no/api/v1/')).toEqual({ path: '/api/v1/', query: '' })
    expect(splitRequestUrl('https://x.no/api/v1/?')).toEqual({ path: '/api/v1/', query: '' })
    expect(splitRequestUrl('https://x.no/api/v1/?a=1#top?b=2')).toEqual({ path: '/api/v1/', query: 'a=1' })
    expect(splitRequestUrl('https://x.no/api/v1#top')).toEqual({ path: '/api/v1', query: '' })
  })

  it('finds the path after the authority, whose user info or port may hold other characters', () => {
    const url = 'http://user:pa%2Fss@[::1]:3000/api?x=http://a/b'
    expect(splitRequestUrl(url)).toEqual({ path: '/api', query: 'x=http://a/b' })
    expect(splitRequestUrl('http://x.no?a=1')).toEqual({ path: '/', query: 'a=1' })
  })
})
