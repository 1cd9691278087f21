import { fakeReply, fixtureFiles, startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'

const fixtures = fixtureFiles(new URL('./fixtures/', import.meta.url))

/** MET refuses anonymous callers: its terms ask every client to say who it is. */
function refusesAnonymous(userAgent: string | undefined): FakeReply | undefined {
  return userAgent ? undefined : fakeReply.status(403, '403 Forbidden: missing or invalid User-Agent')
}

/**
 * A local Locationforecast 2.0 (`/compact`) answering the recorded forecast for Oslo: 403
 * without a User-Agent or with more than four decimals in a coordinate, 400 without one, as
 * MET does.
 *
 * @example
 * const met = await startFakeLocationforecast()
 * createTestGateway({ sources: weather(), upstreams: { met } })
 */
export async function startFakeLocationforecast(): Promise<FakeUpstream> {
  return startFakeUpstream({
    '/compact': (url, req) => {
      const lat = url.searchParams.get('lat')
      const lon = url.searchParams.get('lon')
      if (lat === null || lon === null) return fakeReply.status(400, '400 Bad Request: lat and lon are required')
      if (/\.\d{5,}/.test(lat) || /\.\d{5,}/.test(lon)) return fakeReply.status(403, '403 Forbidden: too many decimals')
      return (
        refusesAnonymous(req.headers['user-agent']) ??
        fakeReply.bytes(fixtures.bytes('locationforecast-compact.json'), 'application/json', {
          headers: { expires: 'Sun, 22 Nov 2026 20:30:00 GMT', 'last-modified': 'Sun, 22 Nov 2026 19:31:12 GMT' },
        })
      )
    },
  })
}

interface AlertFeature {
  properties: { county?: string[] }
}

/**
 * A local MetAlerts 2.0 (`/current.json`) with three warnings in force: wind and rain in
 * Vestland (county 46) and a gale at sea. `county` filters them and `lang` must be `en` or
 * `no`, as on the real service, which also writes every `/` in its JSON as `\/`.
 *
 * @example
 * const alerts = await startFakeMetAlerts()
 * createTestGateway({ sources: weather(), upstreams: { met_alerts: alerts } })
 */
export async function startFakeMetAlerts(): Promise<FakeUpstream> {
  return startFakeUpstream({
    '/current.json': (url, req) => {
      const lang = url.searchParams.get('lang') ?? 'no'
      if (lang !== 'en' && lang !== 'no') return fakeReply.status(400, `400 Bad Request: unknown lang ${lang}`)
      const refused = refusesAnonymous(req.headers['user-agent'])
      if (refused) return refused
      const county = url.searchParams.get('county')
      if (county === null) return fakeReply.bytes(fixtures.bytes('metalerts-current-en.json'), 'application/json')
      const document = fixtures.json<{ features: AlertFeature[] }>('metalerts-current-en.json')
      const features = document.features.filter((f) => f.properties.county?.includes(county))
      return fakeReply.json(JSON.stringify({ ...document, features }).replace(/\//g, '\\/'), {
        contentType: 'application/json',
      })
    },
  })
}
