import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { defaultUserAgent } from '@allmenning/core'

const versionOf = (name: string) =>
  (
    JSON.parse(readFileSync(new URL(`../../packages/${name}/package.json`, import.meta.url), 'utf8')) as {
      version: string
    }
  ).version

describe('the version the gateway states', () => {
  it('is the one in @allmenning/core’s package.json, not a copy of it', () => {
    expect(defaultUserAgent).toBe(`allmenning/${versionOf('core')}`)
  })
})
