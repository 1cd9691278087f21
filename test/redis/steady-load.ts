/** One request of a test against a gateway process, as it ended. */
export interface Outcome {
  phase: string
  /** The HTTP status; `failed` when no answer came (the process is gone), `hung` past the time limit. */
  status: number | 'failed' | 'hung'
  ms: number
  cacheStatus: string | null
  /** The start of the body of an answer other than 200, or the error. */
  detail?: string
}

/**
 * GETs `path` from a gateway process and says how it ended, never throwing: a refused
 * connection and a request still open after `hungAfterMs` are outcomes like a status.
 *
 * @example
 * const outcome = await getOutcome('http://127.0.0.1:4000', '/api/v1/', { hungAfterMs: 2500 })
 */
export async function getOutcome(
  baseUrl: string,
  path: string,
  options: { headers?: Record<string, string>; phase?: string; hungAfterMs: number },
): Promise<Outcome> {
  const phase = options.phase ?? ''
  const started = performance.now()
  try {
    const res = await fetch(`${baseUrl}${path}`, {
      headers: options.headers ?? {},
      signal: AbortSignal.timeout(options.hungAfterMs),
    })
    const body = await res.text()
    const outcome: Outcome = {
      phase,
      status: res.status,
      ms: performance.now() - started,
      cacheStatus: res.headers.get('cache-status'),
    }
    return res.status === 200 ? outcome : { ...outcome, detail: body.slice(0, 300) }
  } catch (error) {
    const hung = error instanceof Error && error.name === 'TimeoutError'
    return {
      phase,
      status: hung ? 'hung' : 'failed',
      ms: performance.now() - started,
      cacheStatus: null,
      detail: String(error),
    }
  }
}

/**
 * A steady stream of requests, one every `everyMs` whether the last was answered or not (as
 * clients arrive), each outcome kept with the phase it was sent in.
 *
 * @example
 * const load = startSteadyLoad(20, (n, phase) => getOutcome(base, `/api/v1/?n=${n}`, { phase, hungAfterMs: 2500 }))
 * await load.sentInPhase(20)
 * load.phase = 'redis killed'
 * const outcomes = await load.stop()
 */
export function startSteadyLoad(everyMs: number, send: (n: number, phase: string) => Promise<Outcome>) {
  const outcomes: Outcome[] = []
  const pending = new Set<Promise<void>>()
  const sent = new Map<string, number>()
  let phase = 'before'
  let n = 0
  const timer = setInterval(() => {
    n++
    sent.set(phase, (sent.get(phase) ?? 0) + 1)
    const request = send(n, phase).then((outcome) => void outcomes.push(outcome))
    pending.add(request)
    void request.finally(() => pending.delete(request))
  }, everyMs)
  return {
    /** Starts a phase: what is sent from now on counts as sent in it. */
    set phase(name: string) {
      phase = name
    },
    /** Waits until `count` requests were sent in the current phase (the machine may be busy). */
    async sentInPhase(count: number) {
      while ((sent.get(phase) ?? 0) < count) await new Promise((resolve) => setTimeout(resolve, everyMs))
    },
    /** Stops sending and gives every outcome once the last request has ended. */
    async stop() {
      clearInterval(timer)
      await Promise.all(pending)
      return outcomes
    },
  }
}
