import { fakeReply, startFakeUpstream, type FakeUpstream } from '@allmenning/core/testing'
import { FIXTURE_ADDRESS_POINTS } from './smilefjes-fixtures.js'

/**
 * A local stand-in for Kartverket's address search (`GET /sok?sok=&postnummer=`), as the
 * geocoding step asks it: `{metadata, adresser: [{adressetekst, postnummer, poststed,
 * kommunenummer, kommunenavn, representasjonspunkt: {epsg, lat, lon}}]}` with Kartverket's
 * `application/json;charset=UTF-8`, the shape of geonorge's recorded answers. It knows the
 * addresses given (the fixture's by default); any other is an empty list, as Kartverket answers.
 * With `failAfter: n` it answers the first `n` searches and then 503 Service Unavailable (an
 * overloaded service midway through a run) until `failWith(undefined)` is called.
 *
 * @example
 * const kartverket = await startFakeKartverketAddresses()
 * await geocodeEstablishmentAddresses({ reader, file: 'data/mattilsynet-adressepunkter.csv', baseUrl: kartverket.baseUrl })
 */
export async function startFakeKartverketAddresses(
  addresses = FIXTURE_ADDRESS_POINTS,
  options: { failAfter?: number } = {},
): Promise<FakeUpstream> {
  const fake = await startFakeUpstream()
  let answered = 0
  fake.route('/sok', (url) => {
    // Later requests get the failure failWith sets; failWith(undefined) ends it.
    if (options.failAfter !== undefined && ++answered === options.failAfter)
      fake.failWith(fakeReply.status(503, 'Service Unavailable'))
    const norm = (line: string) =>
      line
        .toLowerCase()
        .replace(/\s+/g, ' ')
        .replace(/(\d) ([a-zæøå])$/u, '$1$2')
        .trim()
    const text = norm(url.searchParams.get('sok') ?? '')
    const postnr = url.searchParams.get('postnummer')
    // Kartverket matches the words given as prefixes: "Storgata 6" finds "Storgata 60" too.
    const hits = addresses
      .filter((a) => (postnr === null || a.postnr === postnr) && text !== '' && norm(a.street).startsWith(text))
      .map((a) => ({
        adressenavn: a.street.replace(/\s\d+[A-Z]?$/, ''),
        adressetekst: a.street,
        nummer: Number(/(\d+)[A-Z]?$/.exec(a.street)?.[1] ?? 0),
        bokstav: /\d([A-Z])$/.exec(a.street)?.[1] ?? '',
        kommunenummer: a.kommunenummer,
        kommunenavn: a.kommunenavn,
        postnummer: a.postnr,
        poststed: a.poststed,
        objtype: 'Vegadresse',
        representasjonspunkt: { epsg: 'EPSG:4258', lat: a.lat, lon: a.lon },
      }))
    const body = {
      metadata: {
        viserFra: 0,
        viserTil: hits.length,
        totaltAntallTreff: hits.length,
        treffPerSide: 5,
        side: 0,
        sokeStreng: url.search.slice(1),
        asciiKompatibel: true,
      },
      adresser: hits,
    }
    return fakeReply.json(JSON.stringify(body), { contentType: 'application/json;charset=UTF-8' })
  })
  return fake
}
