/**
 * A request's method in upper case, as the gateway compares it. The methods Node's parser gives
 * (upper case already) come back as they are: `toUpperCase` would write a new string on every
 * request.
 *
 * @example
 * upperCaseMethod('GET') // 'GET', the same string
 * upperCaseMethod('get') // 'GET'
 */
export function upperCaseMethod(method: string): string {
  return method === 'GET' || method === 'HEAD' || method === 'POST' ? method : method.toUpperCase()
}
