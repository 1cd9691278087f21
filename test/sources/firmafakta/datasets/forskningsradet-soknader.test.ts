import { afterEach, describe, expect, it } from 'vitest'
import { forskningsradetSoknader } from '@allmenning/sources/firmafakta'
import { createLoadedDatasets, type LoadedDatasets } from '@allmenning/datasets/testing'

const header =
  'prosjektnummer,prosjekttittel,soknadsfrist,soknadsdato,utlysnings_id,utlysningsaktivitet,utlysningtittel,prosjekttype,soknadstype,soknadstypevariant,sokstart,sokslutt,prosjektfase,prosjektstart,prosjektslutt,prosjektleder_kjonn,prosjektansvarlig_type,prosjektansvarlig_navn,kortnavn,organisasjonsnummer,kp1,kp2,sektor,kategori,kommune,kommunenummer,fylke,fylkenummer,landsdel,virkemiddel_sekvens,virkemiddel,hovedaktivitet_sekvens,hovedaktivitet,aktivitet,aktivitet_kode,fagomraade,fag,fagdisiplin,dr_stip_aarsverk,postdok_aarsverk,sokt_belop,tildelt_belop'

let datasets: LoadedDatasets | undefined
afterEach(() => datasets?.close())

describe('forskningsradet_soknader', () => {
  // The published file gives the project's period as years (prosjektstart is "Prosjektets
  // fra-år"), the application date may be empty, and it has no byte-order mark.
  it('reads project periods written as years and an empty application date', async () => {
    const row = [
      '400123',
      'Havvind og fugletrekk',
      '2019-09-18 13:00:00',
      '',
      '',
      '',
      '',
      'Prosjektstøtte',
      'Forskerprosjekt',
      'Forskerprosjekt - Ingen søknadstypevariant',
      '2020',
      '2023',
      'Avsluttet',
      '2020',
      '2024',
      'KVINNE',
      'Organisasjon',
      'Institutt for havfugl',
      'UNIFJORD',
      '0',
      '102',
      '07',
      'UoH-sektor',
      'Universiteter',
      'Bergen',
      '4601',
      'Vestland',
      '46',
      'Vestlandet',
      '1',
      'Programmer',
      '4',
      'Store programmer',
      'Havvind',
      'HAVVIND',
      'Matematikk og naturvitenskap',
      'Biologi',
      'Zoologi',
      '0.0',
      '0.0',
      '9000000.0',
      '8500000.0',
    ].join(',')
    datasets = createLoadedDatasets()
    const result = await datasets.load(
      forskningsradetSoknader,
      [{ file: 'dataset.csv', bytes: Buffer.from(`${header}\n${row}\n`, 'utf8') }],
      '2024-08-13',
    )
    expect(result).toMatchObject({ records: 1, rows: 1, malformed: 0 })
    const rows = await datasets.store
      .reader(forskningsradetSoknader)!
      .select('soknader', { where: { prosjektnummer: '400123' } })
    expect(rows).toEqual([
      expect.objectContaining({
        organisasjonsnummer: null,
        soknadsdato: null,
        prosjektstart: '2020',
        prosjektslutt: '2024',
        tildelt_belop: 8_500_000,
      }),
    ])
  })
})
