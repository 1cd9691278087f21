import { readFileSync, readdirSync } from 'node:fs'
import { fakeReply, startFakeUpstream, type FakeUpstream } from '@allmenning/core/testing'

const PREFIX = '/regnskapsregisteret/regnskap'
const fixtureDir = new URL('./fixtures/', import.meta.url)

/**
 * The recorded-shape statements in `fixtures/regnskap-{orgnr}.json`, by organisation number:
 * a small restaurant company in NOK (its long-term debt an empty object), a holding company
 * filing in USD with group and company accounts for one year (no operating income, no
 * `totalresultat`), and one company the register answers with an empty list. A fresh copy on
 * every call.
 *
 * @example
 * const statements = regnskapFixtures()
 * await startFakeRegnskapsregisteret({ ...statements, '912345742': [] })
 */
export function regnskapFixtures(): Record<string, unknown[]> {
  const statements: Record<string, unknown[]> = {}
  for (const file of readdirSync(fixtureDir)) {
    const orgNr = /^regnskap-(\d{9})\.json$/.exec(file)?.[1]
    if (orgNr) statements[orgNr] = JSON.parse(readFileSync(new URL(file, fixtureDir), 'utf8')) as unknown[]
  }
  return statements
}

/**
 * Starts a fake Regnskapsregisteret on 127.0.0.1 answering like the open API (upstreams-3.md
 * §4.1): `GET /regnskap/{orgnr}` is a JSON array of statements, with the register's own
 * misspelt keys (`regnkapsprinsipper`, `sumInnskuttEgenkaptial`) and empty objects for lines a
 * statement lacks; a number it has nothing for is a 404 with an empty body, unless
 * `otherNumbers` gives statements for it (the offline demo answers any plausible number).
 * `failWith` plays an outage.
 *
 * @example
 * const regnskap = await startFakeRegnskapsregisteret()
 * createGateway({ sources: [firmafakta()], upstreams: { brreg_regnskap: { baseUrl: regnskap.baseUrl } } })
 * regnskap.failWith(fakeReply.status(503), { times: 1 })
 */
export function startFakeRegnskapsregisteret(
  statements: Record<string, unknown[]> = regnskapFixtures(),
  otherNumbers?: (orgnr: string) => unknown[] | undefined,
): Promise<FakeUpstream> {
  return startFakeUpstream(
    {
      '/{orgnr}': (_url, _req, { orgnr }) => {
        const found = orgnr === undefined ? undefined : (statements[orgnr] ?? otherNumbers?.(orgnr))
        return found ? fakeReply.json(found) : fakeReply.status(404)
      },
    },
    { prefix: PREFIX },
  )
}
