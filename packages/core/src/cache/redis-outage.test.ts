import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { createRedisOutage, RedisNotConnectedError } from './redis-outage.js'

/** A client with node-redis's flags and its habit of throwing an 'error' event nobody hears. */
class FlagClient extends EventEmitter {
  isOpen = true
  isReady = true
}

describe('createRedisOutage', () => {
  it('says a client that is not ready is not usable, reporting it once per outage and afresh for the next', () => {
    const client = new FlagClient()
    const errors: unknown[] = []
    const outage = createRedisOutage(client, (e) => errors.push(e), { what: 'limits are counted in process' })
    expect(outage.usable()).toBe(true)
    client.isReady = false
    expect([outage.usable(), outage.usable(), outage.usable()]).toEqual([false, false, false])
    expect(errors).toHaveLength(1)
    expect(errors[0]).toBeInstanceOf(RedisNotConnectedError)
    expect(String(errors[0])).toContain('Redis is not connected: limits are counted in process until it is back')
    client.isReady = true
    expect(outage.usable()).toBe(true)
    client.isReady = false
    expect(outage.usable()).toBe(false)
    expect(errors).toHaveLength(2)
  })

  it("hears the client's own error events, so they end no process, each message once per outage", () => {
    const client = new FlagClient()
    const errors: unknown[] = []
    const outage = createRedisOutage(client, (e) => errors.push(e), { what: 'x', hearErrors: true })
    client.isReady = false
    expect(() => {
      client.emit('error', new Error('Socket closed unexpectedly'))
      for (let i = 0; i < 5; i++) client.emit('error', new Error('connect ECONNREFUSED 127.0.0.1:6379'))
    }).not.toThrow()
    expect(errors.map(String)).toEqual([
      'Error: Socket closed unexpectedly',
      'Error: connect ECONNREFUSED 127.0.0.1:6379',
    ])
    // Failures while connected (a slow Redis) are each reported: every one is news.
    client.isReady = true
    for (let i = 0; i < 2; i++) {
      outage.usable()
      outage.report(new Error('Redis did not answer within 200 ms'))
    }
    expect(errors).toHaveLength(4)
  })

  it('reports the next outage even when no call came between the two to see Redis back', () => {
    const client = new FlagClient()
    const errors: unknown[] = []
    createRedisOutage(client, (e) => errors.push(e), { what: 'x', hearErrors: true })
    client.isReady = false
    client.emit('error', new Error('Socket closed unexpectedly'))
    client.isReady = true
    client.emit('ready')
    client.isReady = false
    client.emit('error', new Error('Socket closed unexpectedly'))
    expect(errors).toHaveLength(2)
  })

  it('leaves a client its owner connects on first use to do so; only one connecting or reconnecting is skipped', () => {
    const client = new FlagClient()
    const outage = createRedisOutage(client, () => undefined, { what: 'the cache is skipped', connectsOnDemand: true })
    client.isOpen = false
    client.isReady = false
    expect(outage.usable()).toBe(true)
    client.isOpen = true
    expect(outage.usable()).toBe(false)
  })

  it('always uses a client without the flags, and reports its every failure', () => {
    const errors: unknown[] = []
    const outage = createRedisOutage(undefined, (e) => errors.push(e), { what: 'x' })
    for (let i = 0; i < 3; i++) {
      expect(outage.usable()).toBe(true)
      outage.report(new Error('store failed'))
    }
    expect(errors).toHaveLength(3)
  })
})
