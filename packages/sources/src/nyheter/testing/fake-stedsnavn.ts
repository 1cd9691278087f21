import { readFileSync } from 'node:fs'
import { fakeReply, startFakeUpstream, type FakeUpstream } from '@allmenning/core/testing'

/**
 * Places of Kartverket's place-name register in the shape of `/sted` rows (our own values):
 * the areas of the recorded police messages (Storgata, Grønland, Majorstuen, Tøyen in Oslo;
 * Sandvika and Fornebu in Bærum; Danmarksplass in Bergen) and a Storgata in Ålesund, which a
 * search limited to Oslo must not take.
 */
export const recordedAreaPlaces = JSON.parse(
  readFileSync(new URL('./fixtures/stedsnavn-places.json', import.meta.url), 'utf8'),
) as AreaPlace[]

/** A `/sted` row, as much of it as the fakes read (the shape geonorge's fake holds too). */
export interface AreaPlace {
  stedsnummer: number
  navneobjekttype: string
  stedsnavn: { skrivemåte: string }[]
  kommuner: { kommunenummer: string }[]
  representasjonspunkt: { koordsys: number | string; nord: number; øst: number }
  [key: string]: unknown
}

/**
 * A local place-name API under `/stedsnavn/v1` answering `/sted` by `sok` (the whole name, any
 * case), `knr` and 1-based `side`/`treffPerSide`, with `metadata` as Kartverket writes it.
 *
 * @example
 * const stedsnavn = await startFakeStedsnavn()
 */
export async function startFakeStedsnavn(places = recordedAreaPlaces): Promise<FakeUpstream> {
  return startFakeUpstream(
    {
      '/sted': (url) => {
        const crs = url.searchParams.get('utkoordsys') ?? '4258'
        if (crs !== '4258' && crs !== '4326')
          return fakeReply.json({ message: 'utkoordsys: unsupported coordinate system' }, { status: 400 })
        const sok = (url.searchParams.get('sok') ?? '').toLowerCase()
        const knr = url.searchParams.getAll('knr')
        const size = Number(url.searchParams.get('treffPerSide') ?? 10)
        const side = Number(url.searchParams.get('side') ?? 1)
        const matches = places.filter(
          (p) =>
            (sok === '' || p.stedsnavn.some((n) => n.skrivemåte.toLowerCase() === sok)) &&
            (knr.length === 0 || p.kommuner.some((k) => knr.includes(k.kommunenummer))),
        )
        const from = (side - 1) * size
        const metadata = {
          side,
          sokeStreng: url.search.slice(1),
          totaltAntallTreff: matches.length,
          treffPerSide: size,
          viserFra: from + 1,
          viserTil: from + size,
        }
        return fakeReply.json({ metadata, navn: matches.slice(from, from + size) }, { contentType: 'application/json' })
      },
    },
    { prefix: '/stedsnavn/v1' },
  )
}
