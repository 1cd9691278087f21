import { testOperationContext } from '@allmenning/core/testing'
import { brreg } from '../brreg-upstream.js'

/** An operation context for the tests, whose `brreg` upstream is a fake Enhetsregisteret at `baseUrl`. */
export function testContext(baseUrl: string, operation: string) {
  return testOperationContext({ source: 'firmafakta', operation, upstream: { ...brreg, baseUrl } })
}
