import { testOperationContext } from '@allmenning/core/testing'

/** An operation context for the tests, whose `brreg` upstream is a fake Enhetsregisteret at `baseUrl`. */
export function testContext(baseUrl: string, operation: string) {
  return testOperationContext({
    source: 'firmafakta',
    operation,
    upstream: { id: 'brreg', name: 'Brønnøysundregistrene Enhetsregisteret', baseUrl },
  })
}
