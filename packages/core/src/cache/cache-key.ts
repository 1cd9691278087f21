import type { Links } from '../http/links.js'

/** What every key the gateway writes to its cache starts with; a new version leaves the old entries unread. */
const keyNamespace = 'allmenning:v1'

/**
 * The key an answer is cached under: the one namespace and version, the parts that tell the
 * answers of a route apart, and the API root its links are written under (links are part of
 * the cached body, so two roots are two answers). Every route that caches builds its key here.
 *
 * @example
 * cacheKey(links, 'search', JSON.stringify(['sesam', 'all']))
 * // 'allmenning:v1:search:["sesam","all"]:/api/v1'
 */
export function cacheKey(links: Pick<Links, 'apiRoot'>, ...parts: string[]): string {
  return `${keyNamespace}:${parts.join(':')}:${links.apiRoot}`
}
