import type { GatewayResponse } from './gateway-request.js'

/** A header name HTTP/1.1 can carry: a token (RFC 9110, section 5.1), as Node checks it. */
const token = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/
/** A character no header value can carry (RFC 9110, section 5.5): a control other than tab, or one past a byte. */
const notFieldValue = /[^\t\x20-\x7e\x80-\xff]/

/**
 * What of an answer cannot be written as HTTP/1.1, or undefined when all of it can: a status
 * outside 200–599, a header name that is not a token, a header value that is missing or holds
 * a character no header may carry (a line break would split the answer). Headers whose value
 * is the one in `unchanged` are not looked at again (the gateway's own are written right), so
 * checking what a hook changed costs a comparison per header.
 *
 * @example
 * unwritable({ status: 200, headers: { 'x-trace': 'a\nb' }, body: null }) // 'the value of header x-trace'
 */
export function unwritable(answer: GatewayResponse, unchanged: Record<string, string> = {}): string | undefined {
  if (!Number.isInteger(answer.status) || answer.status < 200 || answer.status > 599)
    return `the status ${String(answer.status)}`
  const headers = answer.headers
  for (const name in headers) {
    const value = headers[name]
    if (value !== undefined && (value === unchanged[name] || checked.get(name) === value)) continue
    if (!token.test(name)) return `the header name ${JSON.stringify(name)}`
    if (value === undefined || value === null || (typeof value === 'string' && notFieldValue.test(value)))
      return `the value of header ${name}`
    if (checked.size < checkedLimit) checked.set(name, value)
  }
  return undefined
}

/**
 * The last value found writable of each header name, for the next answer: a hook sets the
 * same few headers to the same values on every answer, and two regular expressions a header
 * cost more than the rest of the check. A few hundred names at most are kept.
 */
const checked = new Map<string, string>()
const checkedLimit = 256
