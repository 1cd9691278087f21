import { normalizeMountPath } from '@allmenning/core/adapter'

/**
 * Where the gateway is mounted, as each middleware of this package takes it: `basePath`, the
 * name every Allmenning adapter uses for it.
 *
 * @example
 * const options: BasePathOption = { basePath: '/data' } // serves /data/api/…
 */
export interface BasePathOption {
  /**
   * Path the gateway is mounted under (`/data`). Koa and @koa/router never strip a mount
   * prefix from `ctx.path`, so the middleware does it itself, per segment. Default: root.
   */
  basePath?: string
  /**
   * The former name of `basePath`, still read in this release.
   *
   * @deprecated Use `basePath`, the name the Express and Lambda adapters use too; `prefix` is removed in the next release.
   */
  prefix?: string
}

/**
 * The normalized mount point of an options object: `basePath`, else the deprecated `prefix`.
 * Both given and different is a mistake of the host app's, refused when the middleware is made.
 *
 * @example
 * basePathOf({ basePath: '/data/' }) // '/data'
 * basePathOf({ prefix: 'data' })     // '/data'
 */
export function basePathOf(options: BasePathOption): string {
  const basePath = normalizeMountPath(options.basePath ?? options.prefix)
  if (
    options.basePath !== undefined &&
    options.prefix !== undefined &&
    normalizeMountPath(options.prefix) !== basePath
  ) {
    throw new TypeError(
      `basePath "${options.basePath}" and the deprecated prefix "${options.prefix}" disagree; give basePath alone`,
    )
  }
  return basePath
}
