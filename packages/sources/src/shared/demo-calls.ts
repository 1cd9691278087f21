import * as v from 'valibot'
import { expect } from 'vitest'
import { loadOperations, type SourceDefinition } from '@allmenning/core/source'
import type { TestGateway, TestQuery } from '@allmenning/core/testing'

/** Calls of one source's operations against its demo upstreams, each checked as the demo needs it. */
export interface DemoCalls {
  /**
   * Calls one operation and expects a 200 whose `data` fits the operation's output schema and
   * is not empty: a list with rows, or an object with fields. Returns the parsed answer.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  expectRows(operation: string, query?: TestQuery): Promise<any>
  /** The operations of the source no call has reached yet: empty when the test covers them all. */
  uncalled(): string[]
}

/**
 * The checks of a source's `testing/demo-upstreams.test.ts`: every operation, called through a
 * gateway whose upstreams are the demo fakes, answers real-shaped data, not an empty list.
 *
 * @example
 * const source = nobil({ apiKey: 'demo' })
 * const gateway = createTestGateway({ sources: source, upstreams: { nobil: { baseUrl: 'http://127.0.0.1:4000/api/server' } } })
 * const calls = await demoCalls(gateway, source)
 * await calls.expectRows('find_charging_stations', { lat: 59.91, lon: 10.75 })
 * expect(calls.uncalled()).toEqual([])
 */
export async function demoCalls(gateway: TestGateway, source: SourceDefinition): Promise<DemoCalls> {
  const operations = await loadOperations(source)
  const called = new Set<string>()
  return {
    async expectRows(name, query) {
      const operation = operations.find((candidate) => candidate.name === name)
      if (!operation) throw new Error(`${source.id} has no operation ${name}`)
      called.add(name)
      const where = `${source.id}/${name} ${typeof query === 'string' ? query : JSON.stringify(query ?? {})}`
      const res = await gateway.call(source.id, name, query)
      expect(res.status, `${where}: ${res.body?.slice(0, 400)}`).toBe(200)
      const shape = v.safeParse(operation.output, res.json.data)
      const misfits = shape.issues?.map((issue) => `${v.getDotPath(issue) ?? '(data)'}: ${issue.message}`) ?? []
      expect(misfits, `${where} fits its output schema`).toEqual([])
      const data = res.json.data as unknown
      const rows = Array.isArray(data)
        ? data
        : operation.list
          ? (data as Record<string, unknown[]>)[operation.list]
          : undefined
      if (rows !== undefined) expect(rows.length, `${where} answered no rows`).toBeGreaterThan(0)
      else expect(Object.keys(data ?? {}).length, `${where} answered an empty object`).toBeGreaterThan(0)
      return res.json
    },
    uncalled: () => operations.map((operation) => operation.name).filter((name) => !called.has(name)),
  }
}
