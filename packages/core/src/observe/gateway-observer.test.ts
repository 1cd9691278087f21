import { describe, expect, it } from 'vitest'
import { createGateway, type ErrorKind } from '../index.js'
import { defineSource, defineUpstream } from '../source.js'
import type { GatewayObserver, ObservedRequest } from '../extension.js'

const empty = defineSource({
  id: 'empty',
  name: 'Empty',
  description: 'Nothing.',
  documentation: 'https://empty.example.no',
  topic: 'culture',
  keywords: [],
  contentLanguages: ['no'],
  cacheTtlSeconds: 60,
  upstreams: [
    defineUpstream({ id: 'nothing', name: 'Nothing', baseUrl: 'https://nothing.example.no', publisher: 'Nobody' }),
  ],
  operations: [],
})
const sources = { method: 'GET', path: '/api/v1/kilder', query: '', headers: {} }

describe('observers', () => {
  it('hear each request start and end, the same object both times', async () => {
    const heard: Array<[string, ObservedRequest]> = []
    const observer: GatewayObserver = {
      requestStarted: (r) => heard.push(['started', r]),
      requestFinished: (r) => heard.push(['finished', { ...r }]),
    }
    const gateway = createGateway({ sources: [empty], observers: [observer] })
    expect((await gateway.handle(sources)).status).toBe(200)
    expect(heard.map(([what]) => what)).toEqual(['started', 'finished'])
    expect(heard[1]![1]).toMatchObject({
      method: 'GET',
      route: '/api/v1/kilder',
      status: 200,
      durationMs: expect.any(Number),
    })
    expect(heard[1]![1].request).toBe(heard[0]![1].request)
  })

  it.each([
    [
      'an event',
      (finished: number[]): GatewayObserver[] => [
        {
          requestStarted: () => {
            throw new Error('observer broke')
          },
        },
        { requestFinished: (r) => finished.push(r.status!) },
      ],
    ],
    [
      // And the request counts as observed.
      'observing()',
      (finished: number[]): GatewayObserver[] => [
        {
          observing: () => {
            throw new Error('observer broke')
          },
          requestFinished: (r) => finished.push(r.status!),
        },
      ],
    ],
  ])(
    'never fail a request by throwing in %s: the throw goes to onError as internal, and the observers still hear',
    async (_, observers) => {
      const errors: Array<[unknown, ErrorKind]> = []
      const finished: number[] = []
      const gateway = createGateway({
        sources: [empty],
        onError: (error, kind) => errors.push([error, kind]),
        observers: observers(finished),
      })
      expect((await gateway.handle(sources)).status).toBe(200)
      expect(finished).toEqual([200])
      expect(errors).toEqual([[expect.objectContaining({ message: 'observer broke' }), 'internal']])
    },
  )

  it('record a request only while one of those that hear requests is observing, asked per request', async () => {
    let on = false
    const heard: string[] = []
    const asked: string[] = []
    const tracing: GatewayObserver = {
      observing: () => {
        asked.push('tracing')
        return on
      },
      requestStarted: () => heard.push('started'),
      requestFinished: (r) => heard.push(`finished ${r.status}`),
    }
    // Hears no requests: not asked, and it does not make a request recorded.
    const breakers: GatewayObserver = { observing: () => true, breakerChanged: () => {} }
    const gateway = createGateway({ sources: [empty], observers: [tracing, breakers] })
    expect((await gateway.handle(sources)).status).toBe(200)
    expect(heard).toEqual([])
    on = true
    expect((await gateway.handle(sources)).status).toBe(200)
    expect(heard).toEqual(['started', 'finished 200'])
    expect(asked).toEqual(['tracing', 'tracing'])

    // One that hears requests and cannot say: every request is recorded, and no one is asked.
    on = false
    heard.length = 0
    asked.length = 0
    const metrics: string[] = []
    const always = createGateway({
      sources: [empty],
      observers: [tracing, { requestFinished: (r) => metrics.push(`${r.route} ${r.status}`) }],
    })
    expect((await always.handle(sources)).status).toBe(200)
    expect(metrics).toEqual(['/api/v1/kilder 200'])
    expect(heard).toEqual(['started', 'finished 200'])
    expect(asked).toEqual([])
  })

  it('are told once of the gateway they observe', () => {
    const attached: unknown[] = []
    createGateway({ sources: [empty], observers: [{ attached: (gateway) => attached.push(gateway.datasets()) }] })
    expect(attached).toEqual([[]])
  })
})
