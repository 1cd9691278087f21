import { EnvironmentVariableError } from './gateway-options-from-env.js'

/** What a host running its own Node HTTP server reads from the environment besides the gateway's options. */
export interface ServerSettings {
  /** The port to listen on; 0 leaves it to the system. */
  port: number
  /** How long requests in flight may take to finish on shutdown (`closeGracefully`'s `timeoutMs`); its default when undefined. */
  shutdownTimeoutMs: number | undefined
}

/** The port when `PORT` says nothing. */
export const defaultPort = 3000

/**
 * Reads the Node server's own settings: `PORT` (3000 by default; 0 to let the system choose)
 * and `SHUTDOWN_TIMEOUT_MS` (how long requests in flight may take after `SIGTERM`; unset or
 * empty for `closeGracefully`'s default). A bad value throws an `EnvironmentVariableError`
 * naming the variable and its rule, as `gatewayOptionsFromEnv` does, so a host reads both
 * and stops the start the same way.
 *
 * @example
 * import { closeGracefully } from '@allmenning/core/adapter'
 * const { port, shutdownTimeoutMs } = serverSettingsFromEnv(process.env)
 * server.listen(port)
 * process.once('SIGTERM', () => void closeGracefully(server, { timeoutMs: shutdownTimeoutMs }))
 */
export function serverSettingsFromEnv(env: Record<string, string | undefined>): ServerSettings {
  const port = Number(env.PORT || defaultPort)
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new EnvironmentVariableError('PORT', 'a port number (0 to 65535)', env.PORT!)
  const shutdownTimeoutMs = env.SHUTDOWN_TIMEOUT_MS ? Number(env.SHUTDOWN_TIMEOUT_MS) : undefined
  if (shutdownTimeoutMs !== undefined && !(Number.isInteger(shutdownTimeoutMs) && shutdownTimeoutMs > 0)) {
    throw new EnvironmentVariableError(
      'SHUTDOWN_TIMEOUT_MS',
      'a whole number of milliseconds above 0',
      env.SHUTDOWN_TIMEOUT_MS!,
    )
  }
  return { port, shutdownTimeoutMs }
}
