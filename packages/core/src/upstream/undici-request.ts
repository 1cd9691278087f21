import type { request as UndiciRequest } from 'undici'

let loaded: typeof UndiciRequest | undefined

/**
 * undici's `request`, loaded on the first upstream call instead of with the gateway. undici is
 * the largest code the core carries (about half a megabyte bundled); evaluating it costs a
 * fresh serverless process some 50 ms that a cold start answering discovery, a cached answer
 * or a dataset never needs. Once loaded, each call costs one resolved await.
 *
 * @example
 * const request = await undiciRequest()
 * const response = await request('https://driftsdata.statnett.no/restapi/PhysicalFlowMap/GetFlow')
 */
export async function undiciRequest(): Promise<typeof UndiciRequest> {
  // undici is CommonJS: `default` is its exports however it is loaded (Node, or a bundler's
  // chunk, which has no named exports for it).
  return (loaded ??= (await import('undici')).default.request)
}
