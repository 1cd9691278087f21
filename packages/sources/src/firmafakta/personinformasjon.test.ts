import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GatewayError } from '@allmenning/core'
import { personinformasjon as operation } from './personinformasjon.js'
import { aksjonaerregisteret } from './datasets/aksjonaerregisteret.js'
import { brregRoller } from './datasets/brreg-roller.js'
import { aksjonaerregisteret2024Records } from './testing/aksjonaerregisteret-records.js'
import { rollerTotalbestand } from './testing/brreg-roller-fixtures.js'
import { createMemoryDatasets, type MemoryDatasets, datasetContext } from './testing/loaded-datasets.js'

let both: MemoryDatasets
let rolesOnly: MemoryDatasets
beforeAll(async () => {
  both = createMemoryDatasets()
  rolesOnly = createMemoryDatasets()
  const roles = await both.load(
    brregRoller,
    [{ file: 'roller-totalbestand.json.gz', bytes: rollerTotalbestand() }],
    '2026-11-22',
  )
  expect(roles).toMatchObject({ records: 3, rows: 4, malformed: 1 })
  await both.load(aksjonaerregisteret, [{ file: 'aksjonaerregisteret.csv', records: aksjonaerregisteret2024Records() }])
  await rolesOnly.load(
    brregRoller,
    [{ file: 'roller-totalbestand.json.gz', bytes: rollerTotalbestand() }],
    '2026-11-22',
  )
})
afterAll(() => {
  both.close()
  rolesOnly.close()
})

const run = (person_name: string, datasets = both) =>
  operation.run({ person_name, limit: 25, offset: 0 }, datasetContext('personinformasjon', datasets.store))

describe('personinformasjon', () => {
  it('lists current roles from the streamed roles file and shareholdings, with birth years only', async () => {
    const { data } = await run('Ola Nordmann')
    expect(() => v.parse(operation.output, data)).not.toThrow()
    expect(data).toEqual([
      {
        navn: 'OLA NORDMANN',
        organisasjonsnummer: '912346234',
        bosted: null,
        type: 'Daglig leder/ adm.direktør',
        fodselsaar: 1975,
        kilde: 'enhetsregisteret',
      },
      {
        navn: 'Ola Nordmann',
        organisasjonsnummer: '976030788',
        bosted: null,
        type: 'Daglig leder/ adm.direktør',
        fodselsaar: 1975,
        kilde: 'enhetsregisteret',
      },
      {
        navn: 'NORDMANN OLA',
        organisasjonsnummer: '912346234',
        bosted: '0150 OSLO',
        type: 'Aksjonær (Ordinære aksjer)',
        fodselsaar: 1975,
        kilde: 'aksjonaerregisteret',
      },
      {
        navn: 'NORDMANN OLA',
        organisasjonsnummer: '976030788',
        bosted: '0150 OSLO',
        type: 'Aksjonær (Ordinære aksjer)',
        fodselsaar: 1975,
        kilde: 'aksjonaerregisteret',
      },
      {
        navn: 'NORDMANN OLA',
        organisasjonsnummer: '976030788',
        bosted: '5003 BERGEN',
        type: 'Aksjonær (B-aksjer)',
        fodselsaar: 1980,
        kilde: 'aksjonaerregisteret',
      },
      // The whole name first; then a name that holds every word given (and a middle name).
      {
        navn: 'Ola Johan Nordmann',
        organisasjonsnummer: '976030788',
        bosted: null,
        type: 'Styremedlem',
        fodselsaar: 1990,
        kilde: 'enhetsregisteret',
      },
    ])
    // Resigned, deregistered and deceased holders are left out; full birth dates never leave.
    expect(JSON.stringify(data)).not.toMatch(/1975-09-23/)
  })

  it('finds people by part of the name: first and last name without the middle one, or a surname alone', async () => {
    // Skatteetaten writes HANSEN KARI ELISABETH; the middle name may be left out, in any order.
    for (const name of ['Kari Hansen', 'hansen kari', 'HANSEN']) {
      expect((await run(name)).data, name).toEqual([
        {
          navn: 'HANSEN KARI ELISABETH',
          organisasjonsnummer: '912346234',
          bosted: '7010 TRONDHEIM',
          type: 'Aksjonær (Ordinære aksjer)',
          fodselsaar: 1981,
          kilde: 'aksjonaerregisteret',
        },
      ])
    }
    // A surname alone finds everyone with it, from both registers (all equally good matches:
    // roles first, each register in name order).
    const nordmann = (await run('Nordmann')).data
    expect(nordmann.map((p) => [p.navn, p.fodselsaar, p.kilde])).toEqual([
      ['Ola Johan Nordmann', 1990, 'enhetsregisteret'],
      ['OLA NORDMANN', 1975, 'enhetsregisteret'],
      ['Ola Nordmann', 1975, 'enhetsregisteret'],
      ['NORDMANN OLA', 1975, 'aksjonaerregisteret'],
      ['NORDMANN OLA', 1975, 'aksjonaerregisteret'],
      ['NORDMANN OLA', 1980, 'aksjonaerregisteret'],
    ])
    // The whole name ranks above a partial one, whichever register it is in.
    expect((await run('Johan Nordmann')).data.map((p) => p.navn)).toEqual(['Ola Johan Nordmann'])
    expect((await run('Nordmann Ola')).data.map((p) => p.fodselsaar).at(-1)).toBe(1990)
    expect((await run('ødegård')).data.map((p) => p.kilde)).toEqual(['enhetsregisteret', 'aksjonaerregisteret'])
    // One of the words must be the surname: a first name alone finds no one.
    expect((await run('Kari')).data).toEqual([])
    expect((await run('Kari Nordmann')).data).toEqual([])
  })

  it('matches every word of the name, in any order and case', async () => {
    expect((await run('ødegård åse')).data.map((p) => [p.type, p.kilde])).toEqual([
      ['Styrets leder', 'enhetsregisteret'],
      ['Aksjonær (Ordinære aksjer)', 'aksjonaerregisteret'],
    ])
    expect((await run('Ola Johan Nordmann')).data.map((p) => p.fodselsaar)).toEqual([1990])
    expect((await run('Nobody Atall')).data).toEqual([])
  })

  it('always finds the whole name, however many people share the surname, and ranks it first', async () => {
    // 1,500 HANSENs whose keys sort before "hansen ola": more than the partial matches read.
    const lines = [
      'Orgnr;Selskap;Aksjeklasse;Navn aksjonær;Fødselsår/orgnr;Postnr/sted;Landkode;Antall aksjer;Antall aksjer selskap',
    ]
    for (let i = 0; i < 1500; i++)
      lines.push(`976030788;SESAM AS;Ordinære aksjer;HANSEN AASE${i} OLA;1970;0150 OSLO;NO;${i + 1};100000`)
    lines.push('912346234;SESAM HOLDING AS;Ordinære aksjer;HANSEN OLA;1981;7010 TRONDHEIM;NO;5;100')
    const many = createMemoryDatasets()
    try {
      await many.load(aksjonaerregisteret, [
        { file: 'aksjonaerregisteret.csv', records: lines.map((line) => line.split(';')) },
      ])
      const { data } = await run('Ola Hansen', many)
      expect(data[0]).toMatchObject({ navn: 'HANSEN OLA', organisasjonsnummer: '912346234', fodselsaar: 1981 })
      // Then the partial matches read, up to the bound.
      expect(data).toHaveLength(1001)
      expect(data.slice(1).every((p) => p.navn.startsWith('HANSEN AASE'))).toBe(true)
    } finally {
      many.close()
    }
  })

  it('answers from the roles alone when the shareholder register is not loaded, and 502s when neither is', async () => {
    expect((await run('Ola Nordmann', rolesOnly)).data.map((p) => p.kilde)).toEqual([
      'enhetsregisteret',
      'enhetsregisteret',
      'enhetsregisteret',
    ])
    const empty = createMemoryDatasets()
    try {
      const error = await run('Ola Nordmann', empty).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(GatewayError)
      expect(error).toMatchObject({ status: 502, code: 'dataset_not_loaded' })
      expect((error as Error).message).toContain('npx allmenning datasets sync brreg_roller')
      expect((error as Error).message).toContain('npx allmenning datasets import aksjonaerregisteret <file>')
    } finally {
      empty.close()
    }
  })
})
