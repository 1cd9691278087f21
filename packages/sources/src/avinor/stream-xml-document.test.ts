import { describe, expect, it } from 'vitest'
import { parseFlights } from './parse-flights.js'
import { readXmlList, streamXmlDocument } from './stream-xml-document.js'
import type { XmlElement } from './xml-document.js'

const list = { root: 'airport', feedName: 'the XmlFeed XML', container: 'flights', item: 'flight' }

describe('readXmlList and streamXmlDocument, the one reader of Avinor XML', () => {
  it('hand out each item with its attributes and child texts, entities decoded once and CDATA as it is', async () => {
    const body =
      '<airport name="OSL"><flights lastUpdate="2026-09-25T14:22:33Z">' +
      '<flight uniqueID="a&amp;b"><gate>E&#56;</gate><note><![CDATA[&amp; stays]]></note><status code="A" time="t"/></flight>' +
      '</flights></airport>'
    const items: XmlElement[] = []
    const document = readXmlList(body, list, (item) => items.push(item))
    expect(document).toEqual({ root: { '@_name': 'OSL' }, container: { '@_lastUpdate': '2026-09-25T14:22:33Z' } })
    expect(items).toEqual([
      { '@_uniqueID': 'a&b', gate: 'E8', note: '&amp; stays', status: { '@_code': 'A', '@_time': 't' } },
    ])
    const streamed: XmlElement[] = []
    expect(await streamXmlDocument(body, list, (item) => streamed.push(item))).toEqual(document)
    expect(streamed).toEqual(items)
  })

  it('counts an empty <flight/> among the flights it could not read, small feed or large', () => {
    const flight =
      '<flight uniqueID="1"><flight_id>DY1</flight_id><arr_dep>A</arr_dep><schedule_time>2026-09-25T14:00:00Z</schedule_time></flight>'
    const feed = (flights: string) => `<airport name="OSL"><flights>${flights}</flights></airport>`
    expect(parseFlights(feed(`${flight}<flight/>`))).toMatchObject({ skipped: 1, flights: [{ flightId: 'DY1' }] })
    expect(parseFlights(feed(`${flight.repeat(1000)}<flight/>`))).toMatchObject({ skipped: 1 })
  })
})
