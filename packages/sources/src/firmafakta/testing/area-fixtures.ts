import { readFileSync } from 'node:fs'
import type { RecordedAddress } from '@allmenning/sources/geonorge/testing'
import { organisationNumberCheckDigit } from '../org-nr.js'
import type { BrregRecord } from './fake-brreg.js'

const fixtureDir = new URL('./fixtures/', import.meta.url)
const readJson = <T>(name: string): T => JSON.parse(readFileSync(new URL(name, fixtureDir), 'utf8')) as T

/**
 * Main entities whose business addresses the fake Kartverket can place, in Enhetsregisteret's
 * shape (`fixtures/enheter-omrade.json`): in central Oslo DNB BANK ASA and eight companies of
 * our own (two at one address, one at `Tollbugata 10` where Kartverket has only `10A`, one
 * with an address Kartverket does not have, one with only a post-office box, one with 6
 * employees), NORSK HYDRO ASA 5 km west, a workshop at Bryn 4 km east, a company at Fornebu in
 * Bærum (3201), and EQUINOR ASA in Stavanger. A fresh copy on every call; add them to
 * {@link brregFixtures}' `enheter`.
 *
 * @example
 * const brreg = await startFakeBrreg({ enheter: [...brregFixtures().enheter, ...areaEnheter()] })
 */
export function areaEnheter(): BrregRecord[] {
  return readJson<BrregRecord[]>('enheter-omrade.json')
}

/**
 * Kartverket addresses for {@link areaEnheter} that the geonorge fixtures lack
 * (`fixtures/adresser.json`), in the 20-key shape of `/sok` answers: Kongens gate 30,
 * Dronning Eufemias gate 30, Drammensveien 260, Brynsveien 5, Tollbugata 10A and 14,
 * Snarøyveien 30 (Bærum) and Forusbeen 50 (Stavanger). Add them to geonorge's `recordedAddresses`.
 *
 * @example
 * areaAdresser().map((address) => address.adressetekst) // ['Kongens gate 30', 'Dronning Eufemias gate 30', …]
 */
export function areaAdresser(): RecordedAddress[] {
  return readJson<RecordedAddress[]>('adresser.json')
}

/** What {@link generateAreaCompanies} makes. */
export interface GeneratedArea {
  enheter: BrregRecord[]
  adresser: RecordedAddress[]
}

/** 1 → `a`, 26 → `z`, 27 → `aa`: a street name part no other is a part of, once `veien` follows. */
function letters(n: number): string {
  let text = ''
  for (let rest = n; rest > 0; rest = Math.floor((rest - 1) / 26))
    text = String.fromCharCode(97 + ((rest - 1) % 26)) + text
  return text
}

/**
 * `count` companies in Oslo (0301), each at its own street (`Testaveien 1`, `Testbveien 1`,
 * …, `Testaaveien 1`: the fake Kartverket matches words as substrings, so a house number
 * would also match the `1` of `0150`, and a street name must not be part of another), and the
 * Kartverket address for each, on a grid of 0.0005° steps north-east of `near` (all within
 * about 0.7 km of it for up to 100): enough to reach the area search's caps. Headcounts fall
 * from `firstEmployees` (default 500) by one, so the generated ones are the largest of
 * Oslo's fixtures but DNB.
 *
 * @example
 * const area = generateAreaCompanies(130)
 * await startFakeBrreg({ enheter: [...brregFixtures().enheter, ...areaEnheter(), ...area.enheter] })
 */
export function generateAreaCompanies(
  count: number,
  options: { near?: { lat: number; lon: number }; firstEmployees?: number } = {},
): GeneratedArea {
  const near = options.near ?? { lat: 59.913, lon: 10.746 }
  const enheter: BrregRecord[] = []
  const adresser: RecordedAddress[] = []
  for (let base = 91_300_000; enheter.length < count; base++) {
    const digit = organisationNumberCheckDigit(String(base))
    if (digit === undefined) continue
    const orgnr = `${base}${digit}`
    const n = enheter.length + 1
    const name = `Test${letters(n)}veien`
    const street = `${name} 1`
    enheter.push({
      organisasjonsnummer: orgnr,
      navn: `${name.toUpperCase()} AS`,
      organisasjonsform: {
        kode: 'AS',
        beskrivelse: 'Aksjeselskap',
        _links: { self: { href: 'https://data.brreg.no/enhetsregisteret/api/organisasjonsformer/AS' } },
      },
      registreringsdatoEnhetsregisteret: '2021-03-01',
      registrertIMvaregisteret: true,
      naeringskode1: { kode: '62.010', beskrivelse: 'Programmeringstjenester' },
      antallAnsatte: (options.firstEmployees ?? 500) - n + 1,
      harRegistrertAntallAnsatte: true,
      forretningsadresse: {
        land: 'Norge',
        landkode: 'NO',
        postnummer: '0150',
        poststed: 'OSLO',
        adresse: [street],
        kommune: 'OSLO',
        kommunenummer: '0301',
      },
      konkurs: false,
      underAvvikling: false,
      respons_klasse: 'Enhet',
      _links: { self: { href: `https://data.brreg.no/enhetsregisteret/api/enheter/${orgnr}` } },
    })
    adresser.push({
      adressenavn: name,
      adressetekst: street,
      adressetilleggsnavn: null,
      adressekode: 99_000 + n,
      nummer: 1,
      bokstav: '',
      kommunenummer: '0301',
      kommunenavn: 'OSLO',
      gardsnummer: 200,
      bruksnummer: n,
      festenummer: 0,
      undernummer: null,
      bruksenhetsnummer: ['H0101'],
      objtype: 'Vegadresse',
      poststed: 'OSLO',
      postnummer: '0150',
      adressetekstutenadressetilleggsnavn: street,
      stedfestingverifisert: true,
      representasjonspunkt: {
        epsg: 'EPSG:4258',
        lat: near.lat + ((n - 1) % 10) * 0.0005,
        lon: near.lon + Math.floor((n - 1) / 10) * 0.0005,
      },
      oppdateringsdato: '2021-03-01T10:00:00',
    })
  }
  return { enheter, adresser }
}
