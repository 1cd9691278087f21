import { describe, expect, it } from 'vitest'
import { EnvironmentVariableError } from './gateway-options-from-env.js'
import { serverSettingsFromEnv } from './server-settings-from-env.js'

describe('serverSettingsFromEnv', () => {
  it('listens on 3000 and leaves the shutdown time to closeGracefully when nothing, or nothing but empty values, is set', () => {
    expect(serverSettingsFromEnv({})).toEqual({ port: 3000, shutdownTimeoutMs: undefined })
    expect(serverSettingsFromEnv({ PORT: '', SHUTDOWN_TIMEOUT_MS: '' })).toEqual({
      port: 3000,
      shutdownTimeoutMs: undefined,
    })
  })

  it('reads a port, 0 (the system chooses) and 65535 included, and a shutdown time', () => {
    expect(serverSettingsFromEnv({ PORT: '8080', SHUTDOWN_TIMEOUT_MS: '5000' })).toEqual({
      port: 8080,
      shutdownTimeoutMs: 5000,
    })
    expect(serverSettingsFromEnv({ PORT: '0' }).port).toBe(0)
    expect(serverSettingsFromEnv({ PORT: '65535' }).port).toBe(65_535)
  })

  it.each(['65536', '-1', '80.5', 'http'])('refuses PORT=%s, naming the variable and its rule', (value) => {
    expect(() => serverSettingsFromEnv({ PORT: value })).toThrow(EnvironmentVariableError)
    expect(() => serverSettingsFromEnv({ PORT: value })).toThrow(
      `PORT must be a port number (0 to 65535), got ${JSON.stringify(value)}`,
    )
  })

  it.each(['soon', '0', '-5', '1.5'])('refuses SHUTDOWN_TIMEOUT_MS=%s, naming the variable and its rule', (value) => {
    expect(() => serverSettingsFromEnv({ SHUTDOWN_TIMEOUT_MS: value })).toThrow(
      new EnvironmentVariableError('SHUTDOWN_TIMEOUT_MS', 'a whole number of milliseconds above 0', value),
    )
  })

  it('names PORT first when both are bad, as the servers read them in that order', () => {
    expect(() => serverSettingsFromEnv({ PORT: 'x', SHUTDOWN_TIMEOUT_MS: 'y' })).toThrow(/^PORT must be/)
  })
})
