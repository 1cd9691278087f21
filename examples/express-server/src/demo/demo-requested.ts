import { EnvironmentVariableError } from '@allmenning/core'

/**
 * Whether `ALLMENNING_DEMO` asks for the offline demo: `1` or `true`; unset, empty, `0` or
 * `false` for the real upstreams; anything else is an error naming the variable.
 */
export function demoRequested(env: Record<string, string | undefined>): boolean {
  const value = env.ALLMENNING_DEMO?.trim().toLowerCase() ?? ''
  if (value === '' || value === '0' || value === 'false') return false
  if (value === '1' || value === 'true') return true
  throw new EnvironmentVariableError(
    'ALLMENNING_DEMO',
    '1 or true for the offline demo, 0 or false (or unset) for the real upstreams',
    env.ALLMENNING_DEMO ?? '',
  )
}
