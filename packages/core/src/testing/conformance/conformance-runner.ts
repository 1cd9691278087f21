/**
 * What a conformance suite needs of a test runner: vitest's and Jest's functions fit as they
 * are, so the suites import no runner and work under either.
 *
 * @example
 * import { afterAll, beforeAll, describe, expect, it } from 'vitest'
 * const runner: ConformanceRunner = { describe, it, expect, beforeAll, afterAll }
 */
export interface ConformanceRunner {
  describe(name: string, body: () => void): void
  it(name: string, body: () => Promise<void> | void): void
  beforeAll(body: () => Promise<void> | void): void
  afterAll(body: () => Promise<void> | void): void
  expect: ConformanceExpect
}

/** The matchers the suites use; the runner's own `expect` has them all. */
export interface ConformanceMatchers {
  toBe(expected: unknown): void
  toEqual(expected: unknown): void
  toMatch(expected: string | RegExp): void
  toMatchObject(expected: object): void
  toContain(item: unknown): void
  toContainEqual(item: unknown): void
  toHaveLength(length: number): void
  toHaveProperty(path: string | (string | number)[], value?: unknown): void
  toBeUndefined(): void
  toBeGreaterThan(value: number): void
  toBeLessThan(value: number): void
  toThrow(expected?: string | RegExp): void
  readonly not: ConformanceMatchers
  readonly rejects: ConformanceAsyncMatchers
}

/** `await expect(promise).rejects.toThrow(…)` */
export interface ConformanceAsyncMatchers {
  toThrow(expected?: string | RegExp): Promise<void>
}

/** `expect(value, message?)` with the two asymmetric matchers the suites use. */
export interface ConformanceExpect {
  (actual: unknown, message?: string): ConformanceMatchers
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  any(constructor: unknown): any
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  stringContaining(text: string): any
}
