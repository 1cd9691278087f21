// Upstream calls per 100 gateway calls in a paging client's pattern: clients page on `offset`
// until `has_more_results` is false (the public gateway's clients page 100 at a time; others
// 50 or 20), and ask the same list for other areas or directions. Each pattern runs through the
// built-in sources against their local stand-ins, with upstream answers shared (the default)
// and with `upstreamAnswerBytes: 0` (every gateway answer made calls the upstream), in one run.
// Avinor is left out: its source already shares each feed per airport and window in a memo.
// Counts, not times, so the machine's load does not matter. Not part of `npm test`.
//
//   npm run bench:upstream-sharing
import { createGateway } from '@allmenning/core'
import { statnett } from '@allmenning/sources/statnett'
import { firmafakta } from '@allmenning/sources/firmafakta'
import { startFakeStatnett } from '@allmenning/sources/statnett/testing'
import { generateUnderenheter, startFakeBrreg } from '@allmenning/sources/firmafakta/testing'

const PARENT = '912346021'
const fakes = {
  statnett: await startFakeStatnett(),
  brreg: await startFakeBrreg({ underenheter: generateUnderenheter(PARENT, 480) }),
}
const upstreamCalls = () => fakes.statnett.received.length + fakes.brreg.requests.length

function gatewayWith(upstreamAnswerBytes) {
  return createGateway({
    sources: [statnett(), firmafakta()],
    upstreams: { statnett: fakes.statnett, brreg: fakes.brreg },
    upstreamAnswerBytes,
    onError: (error) => console.error(error),
  })
}

/** Pages through one list until it says there is no more. */
async function pageThrough(gateway, path, query, limit) {
  let calls = 0
  for (let offset = 0; ; offset += limit) {
    const res = await gateway.handle({
      method: 'GET',
      path,
      query: `${query}&limit=${limit}&offset=${offset}`,
      headers: {},
    })
    calls++
    if (res.status !== 200) throw new Error(`${path}?${query}: ${res.status} ${res.body}`)
    if (!JSON.parse(res.body)._meta.pagination.has_more_results) return calls
  }
}

const patterns = [
  {
    name: 'Statnett physical flow, every area, 2 rows a page',
    run: async (gateway) => {
      let calls = 0
      for (const area of ['NO1', 'NO2', 'NO3', 'NO4', 'NO5', 'SE3', 'DK1'])
        calls += await pageThrough(gateway, '/api/v1/kilder/statnett/get_physical_flow', `area=${area}`, 2)
      return calls
    },
  },
  ...[100, 50, 20].map((limit) => ({
    name: `Brønnøysund branches of one company (480), ${limit} a page`,
    run: (gateway) =>
      pageThrough(gateway, '/api/v1/kilder/firmafakta/underenheter_for_selskap', `org_nr=${PARENT}`, limit),
  })),
]

const rows = []
for (const pattern of patterns) {
  const figures = {}
  for (const [label, bytes] of [
    ['shared', undefined],
    ['off', 0],
  ]) {
    const gateway = gatewayWith(bytes)
    const before = upstreamCalls()
    const gatewayCalls = await pattern.run(gateway)
    figures[label] = { gatewayCalls, upstream: upstreamCalls() - before }
  }
  const per100 = (f) => ((100 * f.upstream) / f.gatewayCalls).toFixed(1)
  rows.push(`| ${pattern.name} | ${figures.shared.gatewayCalls} | ${per100(figures.off)} | ${per100(figures.shared)} |`)
}
console.log('Upstream calls per 100 gateway calls, each pattern on a fresh gateway (empty caches)\n')
console.log('| pattern | gateway calls | upstream answers not shared (`upstreamAnswerBytes: 0`) | shared (default) |')
console.log('|---|---|---|---|')
for (const row of rows) console.log(row)
await Promise.all(Object.values(fakes).map((fake) => fake.close()))
