import type { IncomingMessage } from 'node:http'
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'
import { DEMO_NETWORK, siriEtAnswer } from './siri-et-fixture.js'

/** The subscription key the fake accepts besides the demo's. */
export const FAKE_BANENOR_KEY = 'test-banenor-key-0123456789abcdef'

/** The prefix the fake serves under, as Bane NOR's API Management does. */
export const FAKE_BANENOR_PREFIX = '/customer-info/siri-et/v2.1'

/** Azure API Management's refusal: JSON, whatever the API behind it speaks. */
const apimRefusal = (message: string): FakeReply => ({
  status: 401,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ statusCode: 401, message }),
})

/** Bane NOR's XML, as UTF-8 (the content type's wording is not seen in a capture; this is assumed). */
export const siriReply = (xml: string): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'application/xml; charset=utf-8' },
  body: Buffer.from(xml, 'utf8'),
})

async function readBody(req: IncomingMessage): Promise<string> {
  let text = ''
  for await (const chunk of req) text += String(chunk)
  return text
}

/** What a fake Bane NOR accepts and answers. */
export interface FakeBanenorOptions {
  /** The subscription keys it accepts; {@link FAKE_BANENOR_KEY} by default. */
  keys?: readonly string[]
  /** The answer to an accepted request: the demo network shifted to now, by default. */
  answer?: (request: string) => FakeReply
}

/**
 * A local Bane NOR SIRI ET API under `/customer-info/siri-et/v2.1`: `POST /rest` with a SIRI
 * `ServiceRequest` holding an `EstimatedTimetableRequest` answers the network's estimated
 * timetable to a request carrying an accepted `Ocp-Apim-Subscription-Key`; a missing or other
 * key gets API Management's 401 (its documented JSON body), a GET 405, and a body that is not
 * such a request 400.
 *
 * @example
 * const fake = await startFakeBanenor()
 * createGateway({ sources: [banenor({ subscriptionKey: FAKE_BANENOR_KEY })], upstreams: { banenor_siri_et: { baseUrl: fake.baseUrl } } })
 */
export async function startFakeBanenor(options: FakeBanenorOptions = {}): Promise<FakeUpstream> {
  const keys = options.keys ?? [FAKE_BANENOR_KEY]
  const answer = options.answer ?? (() => siriReply(siriEtAnswer(DEMO_NETWORK, Date.now())))
  return startFakeUpstream(
    {
      '/rest': async (_url, req) => {
        if (req.method !== 'POST')
          return { status: 405, headers: { 'content-type': 'text/plain' }, body: 'Method Not Allowed' }
        const key = req.headers['ocp-apim-subscription-key']
        if (typeof key !== 'string' || key === '') {
          return apimRefusal(
            'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.',
          )
        }
        if (!keys.includes(key))
          return apimRefusal(
            'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.',
          )
        const request = await readBody(req)
        if (
          !/<ServiceRequest>[\s\S]*<RequestorRef>[^<]+<\/RequestorRef>[\s\S]*<EstimatedTimetableRequest[\s>]/.test(
            request,
          )
        ) {
          return { status: 400, headers: { 'content-type': 'text/plain' }, body: 'Bad Request' }
        }
        return answer(request)
      },
    },
    FAKE_BANENOR_PREFIX,
  )
}
