import { outlineOf } from '@allmenning/core/source'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { firmafakta } from './index.js'
import { brregFixtures, startFakeBrreg, type FakeBrreg } from './testing/fake-brreg.js'
import { areaAdresser, areaEnheter } from './testing/area-fixtures.js'
import { recordedAddresses, startFakeKartverketAdresser } from '../geonorge/testing/fake-kartverket.js'
import { startFakeRegnskapsregisteret } from './testing/fake-regnskapsregisteret.js'
import type { FakeUpstream } from '@allmenning/core/testing'
import { loadAllDatasets } from './testing/all-datasets.js'

// The source check calls every operation, the eight that read datasets too: every firmafakta
// dataset is loaded into the in-memory store from its fixtures' records (that the import of
// @allmenning/datasets reads the same rows from the real-format files is
// test/sources/firmafakta/datasets/fixture-records.test.ts).

describe('firmafakta and the source check of @allmenning/core/testing', () => {
  let fake: FakeBrreg
  let regnskap: FakeUpstream
  let kartverket: FakeUpstream
  beforeAll(async () => {
    // The area fixtures give finn_selskaper_i_omrade companies whose addresses the fake Kartverket places.
    fake = await startFakeBrreg({ enheter: [...brregFixtures().enheter, ...areaEnheter()] })
    regnskap = await startFakeRegnskapsregisteret()
    kartverket = await startFakeKartverketAdresser({ addresses: [...recordedAddresses, ...areaAdresser()] })
  })
  afterAll(async () => {
    await fake.close()
    await regnskap.close()
    await kartverket.close()
  })

  it('passes the source check: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Brønnøysund or Kartverket, entity search', async () => {
    const datasets = await loadAllDatasets()
    try {
      const report = await checkSource(firmafakta, {
        upstreams: { brreg: fake, brreg_regnskap: regnskap, kartverket_adresser: kartverket },
        datasets: datasets.store,
        examples: {
          organisasjonsnummer_for_selskap: { company_name: 'sesam' },
          personinformasjon: { person_name: 'Ola Nordmann' },
          selskapsdetaljer: { org_nr: '976030788' },
          roller_i_enhet: { org_nr: '976030788' },
          underenheter_for_selskap: { org_nr: '912346021' },
          finn_selskaper: { organisasjonsform: 'AS' },
          finn_selskaper_i_omrade: { lat: 59.913, lon: 10.746, radius_km: 1, min_employees: 10 },
          get_company_last_financial_statement: { org_nr: '976030788' },
          aksjeeiere_for_selskap: { org_nr: '976030788' },
          selskapets_aksjeposter: { org_nr: '912346234' },
          aksjeposter_for_person: { name: 'Ola Nordmann', birth_year: '1975' },
          tildelinger_for_selskap: { org_nr: '976030788' },
          eu_tildelinger_for_selskap: { org_nr: '974760843' },
          forskningsradet_tildelinger_for_selskap: { org_nr: '912345645' },
          skattefunnprosjekter_for_selskap: { org_nr: '976030788' },
        },
        search: 'sesam',
      })
      expect(report.operations).toEqual(outlineOf(firmafakta().operations).map((o) => o.name))
      expect(report.passed).toContain('underenheter_for_selskap: limit and offset page the list')
      expect(report.passed).toContain('aksjeeiere_for_selskap: limit and offset page the list')
      expect(report.passed).toContain('finn_selskaper: limit and offset page the list')
      expect(report.passed).toContain('finn_selskaper_i_omrade: limit and offset page the list')
      // The eight dataset operations call no upstream, so upstream failures do not reach them.
      expect([...report.notes].sort()).toEqual(
        [
          'personinformasjon',
          'aksjeeiere_for_selskap',
          'selskapets_aksjeposter',
          'aksjeposter_for_person',
          'tildelinger_for_selskap',
          'eu_tildelinger_for_selskap',
          'forskningsradet_tildelinger_for_selskap',
          'skattefunnprosjekter_for_selskap',
        ]
          .map((name) => `${name}: answers without calling an upstream, so upstream failures do not reach it`)
          .sort(),
      )
    } finally {
      datasets.close()
    }
  })
})
