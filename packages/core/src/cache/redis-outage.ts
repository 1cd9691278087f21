/** The connection flags a node-redis client (v4 and later) carries; other clients may have neither. */
export interface RedisConnectionFlags {
  /** True from `connect()` until `close()`/`destroy()`, reconnections included. */
  readonly isOpen?: boolean
  /** True only while a connection is up and handshaken. */
  readonly isReady?: boolean
}

/**
 * A client's `error` event, which node-redis throws (ending the process) when nobody listens,
 * and its `ready` event, at every connection made.
 */
export interface RedisErrorEvents {
  on?(event: 'error' | 'ready', listener: (error: unknown) => void): unknown
}

/**
 * How a part of the gateway goes through a Redis outage. See {@link createRedisOutage}.
 *
 * @example
 * if (!outage.usable()) return counter.inProcess()
 * try { return await counter.inRedis() } catch (error) { outage.report(error); return counter.inProcess() }
 */
export interface RedisOutage {
  /** Whether a command is worth sending now; false while the client is not connected (said once per outage). */
  usable(): boolean
  /** Reports a failure, unless the same message was reported since Redis was last usable. */
  report(error: unknown): void
}

/**
 * Redis is not connected, so the gateway went on without it; reported to `onError` once per
 * outage, to tell from failures that need a look.
 *
 * @example
 * onError: (error, kind) => (error instanceof RedisNotConnectedError ? console.warn(error.message) : console.error(kind, error))
 */
export class RedisNotConnectedError extends Error {
  constructor(what: string) {
    super(`Redis is not connected: ${what} until it is back`)
    this.name = 'RedisNotConnectedError'
  }
}

/**
 * Makes a Redis outage cost neither answers nor time: while the client says it is not
 * connected, `usable()` is false and the caller goes on without Redis at once. Sending anyway
 * would park the command in node-redis's offline queue until the caller's time limit, on every
 * request, and the queue would then send every one of those stale commands (lock takes, counts)
 * when Redis returns. Reports are kept to one per distinct message per outage, so a steady
 * stream of requests (or a client retrying its connection) does not flood `onError`; once the
 * client is connected again, `usable()` is true and the next outage is reported afresh.
 *
 * With `hearErrors`, the client's own `error` events are reported the same way: a client
 * given to the gateway then never ends the process when its connection drops, listener or not.
 *
 * `connectsOnDemand` is for a client that its owner connects at first use (a Keyv store from
 * `createKeyv(url)`): a client not yet opened is left to do so, only one that is open but not
 * ready (connecting, or reconnecting) is skipped. A client without the flags is always used.
 *
 * @example
 * const outage = createRedisOutage(redis, onError, { what: 'rate limits are counted in process' })
 */
export function createRedisOutage(
  client: (RedisConnectionFlags & RedisErrorEvents) | undefined,
  onError: (error: unknown) => void,
  options: { what: string; connectsOnDemand?: boolean; hearErrors?: boolean },
): RedisOutage {
  const reported = new Set<string>()
  const connected = () => {
    if (client?.isReady !== false) return true
    return options.connectsOnDemand === true && client.isOpen !== true
  }
  const report = (error: unknown) => {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    if (reported.has(message)) return
    // Distinct messages are few (a closed socket, a refused connection); the cap is for safety.
    if (reported.size < 32) reported.add(message)
    onError(error)
  }
  if (options.hearErrors) client?.on?.('error', report)
  // Connected again: the next outage is news, even if no call came in between to notice.
  client?.on?.('ready', () => reported.clear())
  return {
    usable() {
      if (connected()) {
        reported.clear()
        return true
      }
      report(new RedisNotConnectedError(options.what))
      return false
    },
    report,
  }
}
