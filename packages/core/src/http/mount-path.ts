// Adapters that mount the gateway under a path prefix (Koa, Lambda base-path mappings) share these.
/**
 * Normalizes a mount prefix to `''` (root) or `/segment[/segment…]` without a trailing slash,
 * so that `'data'`, `'/data'` and `'/data/'` all mount at the same place.
 *
 * @example
 * normalizeMountPath('/data/') // '/data'
 * normalizeMountPath('/')      // ''
 */
export function normalizeMountPath(prefix: string | undefined): string {
  if (!prefix) return ''
  const trimmed = prefix.replace(/\/+$/, '')
  if (trimmed === '') return ''
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`
}

/**
 * The part of `path` below `prefix`, or `undefined` when `path` is not under it. Matching is
 * per segment: a prefix of `/data` owns `/data` and `/data/…` but never `/database`.
 *
 * @example
 * stripMountPath('/data/api/v1', '/data') // '/api/v1'
 * stripMountPath('/database', '/data')    // undefined
 */
export function stripMountPath(path: string, prefix: string): string | undefined {
  if (prefix === '') return path
  if (!path.startsWith(prefix)) return undefined
  const rest = path.slice(prefix.length)
  if (rest === '') return '/'
  return rest.startsWith('/') ? rest : undefined
}
