/**
 * `@allmenning/core/adapter`: for adapter authors, the code between a web framework or runtime
 * and the gateway (what `@allmenning/adapter-express`, `-koa` and `-lambda` are built on), and
 * for hosts that run the Node HTTP server themselves. Read a request body without a body
 * parser's help, strip a mount point per segment, answer a host's own errors and unmatched
 * paths in the gateway's error body, refuse what Node refuses by itself, and close gracefully.
 * The request and response types an adapter translates (`GatewayRequest`, `GatewayResponse`,
 * `Gateway`) are in `@allmenning/core`.
 *
 * @example
 * import type { Gateway } from '@allmenning/core'
 * import { normalizeMountPath, stripMountPath } from '@allmenning/core/adapter'
 *
 * function ownsUrl(gateway: Gateway, url: string, mountedAt: string): boolean {
 *   const path = stripMountPath(url, normalizeMountPath(mountedAt))
 *   return path !== undefined && gateway.owns(path)
 * }
 *
 * @module
 */
export {
  bodyText,
  checkParsedBodySize,
  hasBody,
  maxRequestBodyBytes,
  readRequestBody,
} from './http/read-request-body.js'
export { jsonContentType } from './http/json-response.js'
export { bodyBytes } from './http/body-bytes.js'
export { answerOf } from './http/answer-of.js'
export { upperCaseMethod } from './http/upper-case-method.js'
export { normalizeMountPath, stripMountPath } from './http/mount-path.js'
export { hostErrorAnswer, hostErrorResponse, notFoundAnswer, notFoundResponse } from './http/host-error.js'
export type { HostDoors } from './http/host-error.js'
export { answerServerRefusals } from './http/server-refusals.js'
export { closeGracefully } from './http/graceful-close.js'
