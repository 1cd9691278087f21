import { Registry, type Metric } from 'prom-client'

type Labels = Record<string, string>

/** One line of a metric as prom-client's registry reads it at a scrape. */
interface ExportedValue {
  labels: Record<string, string | number>
  value: number
  metricName?: string
}

/** What the registry asks of a metric it did not make. */
interface ExportedMetric {
  name: string
  help: string
  type: 'counter' | 'histogram'
  aggregator: 'sum'
  get(): Promise<{ name: string; help: string; type: string; values: ExportedValue[]; aggregator: 'sum' }>
  reset(): void
}

/** A label value as a key: a number (a status) is looked up as a number, without a string made of it. */
type Key = string | number

/**
 * The metrics every answered request records, kept in plain fields of series found by up to
 * four label values, one map per value: recording one is a few lookups by strings the gateway
 * already holds (route templates, source ids, whose hashes V8 keeps) and an addition.
 * prom-client's own `inc` and `observe` hash a label object on every call, microseconds on a
 * path that answers a cache hit in less; a key joined per request would hash a new string.
 * The registry reads these only when scraped, in prom-client's exposition format, so the
 * series read exactly as prom-client's would.
 */
abstract class Tallied<Series extends { labels: Labels }> implements ExportedMetric {
  abstract readonly type: 'counter' | 'histogram'
  readonly aggregator = 'sum' as const
  private readonly tree = new Map<Key, Map<Key, Map<Key, Map<Key, Series>>>>()
  protected readonly all: Series[] = []

  constructor(
    readonly name: string,
    readonly help: string,
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Metric)
  }

  // The series found last, and its label values: a busy route's requests come one after
  // another, and comparing four values is cheaper than four map lookups.
  private lastA: Key | undefined
  private lastB: Key | undefined
  private lastC: Key | undefined
  private lastD: Key | undefined
  private lastSeries: Series | undefined

  /** The series of these label values (in a fixed order of the caller's); undefined until {@link add} made it. */
  find(a: Key, b: Key = '', c: Key = '', d: Key = ''): Series | undefined {
    if (a === this.lastA && b === this.lastB && c === this.lastC && d === this.lastD) return this.lastSeries
    const found = this.tree.get(a)?.get(b)?.get(c)?.get(d)
    if (found !== undefined) {
      this.lastA = a
      this.lastB = b
      this.lastC = c
      this.lastD = d
      this.lastSeries = found
    }
    return found
  }

  /** Makes the series of these label values, with its labels: `metric.find(a, b) ?? metric.add(labels, a, b)`. */
  add(labels: Labels, a: Key, b: Key = '', c: Key = '', d: Key = ''): Series {
    const made = this.create(labels)
    const level = <K, V>(map: Map<K, V>, key: K, empty: () => V): V => {
      let next = map.get(key)
      if (next === undefined) {
        next = empty()
        map.set(key, next)
      }
      return next
    }
    level(
      level(
        level(this.tree, a, () => new Map()),
        b,
        () => new Map(),
      ),
      c,
      () => new Map(),
    ).set(d, made)
    this.all.push(made)
    return made
  }

  reset(): void {
    this.tree.clear()
    this.all.length = 0
    this.lastA = this.lastB = this.lastC = this.lastD = this.lastSeries = undefined
  }

  async get() {
    return { name: this.name, help: this.help, type: this.type, values: this.values(), aggregator: this.aggregator }
  }

  protected abstract create(labels: Labels): Series
  protected abstract values(): ExportedValue[]
}

/** A counter's series. */
export interface CounterSeries {
  readonly labels: Labels
  value: number
}

/**
 * A counter recorded in plain fields (see {@link Tallied}).
 *
 * @example
 * const requests = new TalliedCounter('app_requests_total', 'Requests.', new Registry())
 * ;(requests.find('GET') ?? requests.add({ method: 'GET' }, 'GET')).value++
 */
export class TalliedCounter extends Tallied<CounterSeries> {
  readonly type = 'counter' as const

  protected create(labels: Labels): CounterSeries {
    return { labels, value: 0 }
  }

  protected values(): ExportedValue[] {
    return this.all.map(({ labels, value }) => ({ labels, value }))
  }
}

/** A histogram's series: the count in each bucket (not cumulative), the sum and the count. */
export class HistogramSeries {
  readonly counts: Float64Array
  sum = 0
  count = 0

  constructor(
    readonly labels: Labels,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length)
  }

  /** Records one value: in the first bucket whose bound it does not pass (`le`), or only in `+Inf`. */
  observe(value: number): void {
    const bounds = this.bounds
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        this.counts[i]!++
        break
      }
    }
    this.sum += value
    this.count++
  }
}

/**
 * A histogram recorded in plain fields (see {@link Tallied}).
 *
 * @example
 * const latency = new TalliedHistogram('app_seconds', 'Latency.', [0.01, 0.1, 1], new Registry())
 * ;(latency.find('GET') ?? latency.add({ method: 'GET' }, 'GET')).observe(0.004)
 */
export class TalliedHistogram extends Tallied<HistogramSeries> {
  readonly type = 'histogram' as const

  constructor(
    name: string,
    help: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    super(name, help, registry)
    if (bounds.some((bound, i) => i > 0 && bound <= bounds[i - 1]!))
      throw new TypeError(`${name}: bucket bounds must increase`)
  }

  protected create(labels: Labels): HistogramSeries {
    return new HistogramSeries(labels, this.bounds)
  }

  protected values(): ExportedValue[] {
    const values: ExportedValue[] = []
    for (const series of this.all) {
      let cumulative = 0
      this.bounds.forEach((bound, i) => {
        cumulative += series.counts[i]!
        values.push({ labels: { le: bound, ...series.labels }, value: cumulative, metricName: `${this.name}_bucket` })
      })
      values.push({ labels: { le: '+Inf', ...series.labels }, value: series.count, metricName: `${this.name}_bucket` })
      values.push({ labels: series.labels, value: series.sum, metricName: `${this.name}_sum` })
      values.push({ labels: series.labels, value: series.count, metricName: `${this.name}_count` })
    }
    return values
  }
}
