import type { SourceDefinition } from '@allmenning/core'
import { avinor } from './avinor/index.js'
import { firmafakta } from './firmafakta/index.js'
import { statnett } from './statnett/index.js'

/** The environment variable that overrides each built-in upstream's base URL. */
export const upstreamEnvironmentVariables = {
  statnett: 'ALLMENNING_UPSTREAM_STATNETT',
  avinor: 'ALLMENNING_UPSTREAM_AVINOR',
  brreg: 'ALLMENNING_UPSTREAM_BRREG',
} as const

type Environment = Record<string, string | undefined>

const read = (env: Environment, name: string) => {
  const value = env[name]?.trim()
  return value === undefined || value === '' ? undefined : value
}

/**
 * Every built-in source, with upstream base URLs taken from `ALLMENNING_UPSTREAM_<NAME>`
 * where set (the real services otherwise). What the example servers and the Lambda
 * example use.
 *
 * @example
 * createGateway({ sources: builtInSources(process.env) })
 */
export function builtInSources(env: Environment = {}): SourceDefinition[] {
  return [
    firmafakta({ baseUrl: read(env, upstreamEnvironmentVariables.brreg) }),
    avinor({ baseUrl: read(env, upstreamEnvironmentVariables.avinor) }),
    statnett({ baseUrl: read(env, upstreamEnvironmentVariables.statnett) }),
  ]
}
