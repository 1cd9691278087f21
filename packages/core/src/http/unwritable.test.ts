import { describe, expect, it } from 'vitest'
import { unwritable } from './unwritable.js'

const ok = { status: 200, headers: { 'content-type': 'application/json', 'x-trace': 'abc' }, body: '{}' }

describe('unwritable', () => {
  it('passes an answer HTTP/1.1 can carry, tab and bytes past ASCII in a value included', () => {
    expect(unwritable(ok)).toBeUndefined()
    expect(unwritable({ ...ok, headers: { 'x-note': 'a\tb, bl\u00e5' } })).toBeUndefined()
  })

  it('names a status outside 200–599', () => {
    expect(unwritable({ ...ok, status: 1000 })).toBe('the status 1000')
    expect(unwritable({ ...ok, status: 99 })).toBe('the status 99')
    expect(unwritable({ ...ok, status: 200.5 })).toBe('the status 200.5')
  })

  it('names a header name that is not a token, and a value that would split the answer or is missing', () => {
    expect(unwritable({ ...ok, headers: { 'x trace': 'a' } })).toBe('the header name "x trace"')
    expect(unwritable({ ...ok, headers: { 'x-trace': 'a\r\nset-cookie: b' } })).toBe('the value of header x-trace')
    expect(unwritable({ ...ok, headers: { 'x-trace': 'ø\u2028' } })).toBe('the value of header x-trace')
    expect(unwritable({ ...ok, headers: { 'x-trace': undefined as unknown as string } })).toBe(
      'the value of header x-trace',
    )
  })

  it('looks only at the headers that differ from the answer it was made from', () => {
    const before = { 'x-trace': 'a\nb' }
    expect(unwritable({ ...ok, headers: { 'x-trace': 'a\nb' } }, before)).toBeUndefined()
    expect(unwritable({ ...ok, headers: { 'x-trace': 'a\nc' } }, before)).toBe('the value of header x-trace')
  })
})
