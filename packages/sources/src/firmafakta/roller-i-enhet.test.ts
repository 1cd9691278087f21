import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeBrreg, type FakeBrreg } from './testing/fake-brreg.js'
import { UpstreamError } from '@allmenning/core/source'
import { personEntityId } from './person-id.js'
import { rollerIEnhet as operation } from './roller-i-enhet.js'
import { testContext } from './testing/test-context.js'

describe('roller_i_enhet', () => {
  let fake: FakeBrreg
  beforeAll(async () => {
    fake = await startFakeBrreg()
  })
  afterAll(() => fake.close())

  const params = (org_nr: string) => ({ org_nr, limit: 25, offset: 0 })
  const run = (org_nr: string) => {
    const ctx = testContext(fake.baseUrl, 'roller_i_enhet')
    return operation.run(params(org_nr), ctx).then((result) => ({ result, ctx }))
  }

  it('lists every role held by a person, resigned ones marked, with only the birth year', async () => {
    const { result, ctx } = await run('976030788')
    expect(() => v.parse(operation.output, result.data)).not.toThrow()
    expect(result.data.status).toBe('active')
    expect(result.data.rollegrupper.map((group) => group.kode)).toEqual(['DAGL', 'STYR', 'REVI'])
    const styre = result.data.rollegrupper[1]
    expect(styre).toMatchObject({ kode: 'STYR', beskrivelse: 'Styre', sistEndret: '2019-01-01' })
    expect(styre?.roller[0]).toEqual({
      rolle: 'LEDE',
      beskrivelse: 'Styrets leder',
      innehaver: 'person',
      navn: 'Ove Olsen',
      fodselsaar: 1981,
      erDoed: false,
      organisasjonsnummer: null,
      organisasjonsform: null,
      erSlettet: null,
      godkjenningsstatus: null,
      postadresse: null,
      valgtAv: 'Representant for A-aksjonærene',
      ansvarsandel: null,
      fratraadt: false,
      avregistrert: false,
      rekkefolge: 0,
    })
    expect(styre?.roller.map((role) => [role.navn, role.fratraadt, role.erDoed])).toEqual([
      ['Ove Olsen', false, false],
      ['Åse Ødegård', false, false],
      ['Per Hansen', true, true],
      ['Ove Olsen', false, false],
    ])
    expect(result.data.rollegrupper[0]?.roller[0]?.navn).toBe('Kari Sesam Nordmann')
    // Not a single full birth date leaves the gateway.
    expect(JSON.stringify(result.data)).not.toMatch(/fodselsdato|1981-01-01|1975-09-23|1962-12-31|1950-04-17/)
    expect(ctx.calls).toEqual([`${fake.baseUrl}/enheter/976030788/roller`])
    expect(fake.calls.at(-1)?.accept).toBe('application/vnd.brreg.enhetsregisteret.rolle.v1+json;charset=UTF-8')
  })

  it('lists roles held by entities, joining the array Brønnøysund sends as their name', async () => {
    const { result } = await run('912346234')
    expect(() => v.parse(operation.output, result.data)).not.toThrow()
    const delt = result.data.rollegrupper.find((group) => group.kode === 'DELT')
    expect(
      delt?.roller.map((role) => [role.innehaver, role.organisasjonsnummer, role.navn, role.ansvarsandel]),
    ).toEqual([
      ['enhet', '912346161', 'KYSTLINJE HOLDING AS', '50%'],
      ['enhet', '912346021', 'NORDLYS KAFÉDRIFT AS', '50%'],
    ])
    expect(delt?.roller[0]).toMatchObject({ organisasjonsform: 'AS', erSlettet: false, fodselsaar: null, erDoed: null })
  })

  it('extracts each person once (name + birth year) and each entity, with links to more', async () => {
    const { result } = await run('976030788')
    expect(operation.entities?.(result.data, params('976030788'))).toEqual([
      {
        type: 'person',
        id: 'kari-sesam-nordmann-1975',
        name: 'Kari Sesam Nordmann',
        linkParameters: { org_nr: '976030788' },
      },
      { type: 'person', id: 'ove-olsen-1981', name: 'Ove Olsen', linkParameters: { org_nr: '976030788' } },
      { type: 'person', id: 'åse-ødegård-1962', name: 'Åse Ødegård', linkParameters: { org_nr: '976030788' } },
      { type: 'person', id: 'per-hansen-1950', name: 'Per Hansen', linkParameters: { org_nr: '976030788' } },
      {
        type: 'organization',
        id: '912346099',
        name: 'FJELLTOPP REVISJON AS',
      },
    ])
  })

  it('answers an entity without roles with empty role groups', async () => {
    const { result } = await run('912345602')
    expect(result.data).toEqual({
      organisasjonsnummer: '912345602',
      status: 'active',
      slettedato: null,
      rollegrupper: [],
    })
  })

  it('answers a removed entity (410) as data saying so', async () => {
    const { result } = await run('912346374')
    expect(result.data).toEqual({
      organisasjonsnummer: '912346374',
      status: 'removed',
      slettedato: '2017-10-20',
      rollegrupper: [],
    })
  })

  it('answers the roles of a deleted entity as removed, though Brønnøysund says only 404 with an empty body', async () => {
    const { result, ctx } = await run('912346455')
    expect(() => v.parse(operation.output, result.data)).not.toThrow()
    expect(result.data).toEqual({
      organisasjonsnummer: '912346455',
      status: 'removed',
      slettedato: '2025-06-30',
      rollegrupper: [],
    })
    expect(ctx.calls).toEqual([`${fake.baseUrl}/enheter/912346455/roller`, `${fake.baseUrl}/enheter/912346455`])
    expect(result.sourceApi).toBe(`${fake.baseUrl}/enheter/912346455`)
  })

  it('names the estate administrator (BOBE) of a bankrupt company, held by a bostyrer', async () => {
    const { result } = await run('912346307')
    expect(() => v.parse(operation.output, result.data)).not.toThrow()
    const bobe = result.data.rollegrupper.find((group) => group.kode === 'BOBE')
    expect(bobe?.roller[0]).toEqual({
      rolle: 'BOBE',
      beskrivelse: 'Bostyrer',
      innehaver: 'bostyrer',
      navn: 'Adv. Ingrid Bostad',
      fodselsaar: null,
      erDoed: false,
      organisasjonsnummer: null,
      organisasjonsform: null,
      erSlettet: null,
      godkjenningsstatus: null,
      postadresse: {
        adresse: ['Postboks 77 Sentrum'],
        postnummer: '5804',
        poststed: 'BERGEN',
        kommune: null,
        kommunenummer: null,
        land: null,
        landkode: 'NO',
      },
      valgtAv: null,
      ansvarsandel: null,
      fratraadt: false,
      avregistrert: false,
      rekkefolge: 0,
    })
  })

  it('says whether an auditor entity is an approved audit firm', async () => {
    const { result } = await run('976030788')
    const revi = result.data.rollegrupper.find((group) => group.kode === 'REVI')
    expect(revi?.roller[0]).toMatchObject({ innehaver: 'enhet', godkjenningsstatus: 'Godkjent revisjonsforetak' })
  })

  it('is a 404 naming the main entity for a sub-unit, which has no roles of its own', async () => {
    const failure = await run('812345737').catch((error: unknown) => error)
    expect(failure).toMatchObject({
      status: 404,
      code: 'entity_not_found',
      message:
        '812345737 is a sub-unit in Enhetsregisteret, which has no roles of its own; roles are registered on its main entity 912346021',
    })
  })

  it('is a 404 for an unknown number and a 502 when Brønnøysund fails', async () => {
    await expect(run('100000040')).rejects.toMatchObject({
      status: 404,
      code: 'entity_not_found',
      message: 'No entity with organisation number 100000040 in Enhetsregisteret',
    })
    fake.failWith(500, 1)
    const failure = await run('976030788').catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(UpstreamError)
    expect(failure).toMatchObject({ status: 502 })
  })

  it('keeps a role whose holder is neither a person nor an entity', async () => {
    fake.upstream.route('/enheter/923609016/roller', () => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        rollegrupper: [
          {
            type: { kode: 'KOMP', beskrivelse: 'Komplementar' },
            roller: [{ type: { kode: 'KOMP' }, fratraadt: false }],
          },
        ],
      }),
    }))
    const { result } = await run('923609016')
    expect(result.data.rollegrupper[0]?.roller[0]).toMatchObject({ innehaver: 'ukjent', navn: null, beskrivelse: null })
  })
})

describe('personEntityId', () => {
  it('joins name words and birth year, keeping Norwegian letters', () => {
    expect(personEntityId('Ove  Olsen', 1981)).toBe('ove-olsen-1981')
    expect(personEntityId('Åse Ødegård-Berg', null)).toBe('åse-ødegård-berg')
    expect(personEntityId('Bjørn Li', 1970)).not.toBe(personEntityId('Bjorn Li', 1970))
  })
})
