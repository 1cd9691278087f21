import { SMILEFJES_COLUMNS } from '../datasets/smilefjes-reader.js'

/** One inspection as a line of the smilefjes file: its fields by column name. */
export type SmilefjesLine = Partial<Record<(typeof SMILEFJES_COLUMNS)[number], string>>

/** The four themes as the file names them, in Bokmål and Nynorsk. */
export const THEMES: Array<[string, string]> = [
  ['Rutiner og ledelse', 'Rutinar og leiing'],
  ['Lokaler og utstyr', 'Lokale og utstyr'],
  ['Mat-håndtering og tilberedning', 'Mathandtering og tilbereiing'],
  ['Merking og sporbarhet', 'Merking og sporbarheit'],
]

/**
 * An inspection line with the themes filled in: `grades` are the total and the four themes.
 *
 * @example
 * inspection({ tilsynsobjektid: 'Z1', navn: 'Kafé', dato: '05032024' }, [1, 0, 1, 1, 0])
 */
export function inspection(fields: SmilefjesLine, grades: [number, number, number, number, number]): SmilefjesLine {
  const line: SmilefjesLine = {
    status: '0',
    sakref: `${fields.tilsynid ?? ''}`.slice(-10),
    tilsynsbesoektype: '0',
    ...fields,
    total_karakter: String(grades[0]),
  }
  THEMES.forEach(([no, nn], i) => {
    line[`tema${i + 1}_no` as 'tema1_no'] = no
    line[`tema${i + 1}_nn` as 'tema1_nn'] = nn
    line[`karakter${i + 1}` as 'karakter1'] = String(grades[i + 1])
  })
  return line
}

// Made up, in the file's layout: establishments in Oslo's centre, one in Bergen, one in Tromsø.
// Ids look like Mattilsynet's (Z, a timestamp-like number, a letter); names and numbers are invented.
const oslo = { poststed: 'OSLO' }
export const FIXTURE_LINES: SmilefjesLine[] = [
  inspection(
    {
      tilsynsobjektid: 'Z1601011200000000001A',
      orgnummer: '912345670',
      navn: 'Kafé Kvadraturen',
      adrlinje1: 'Kirkegata 15',
      postnr: '0153',
      ...oslo,
      tilsynid: 'Z2301101000000000101T',
      dato: '10012023',
    },
    [2, 1, 2, 2, 0],
  ),
  inspection(
    {
      tilsynsobjektid: 'Z1601011200000000001A',
      orgnummer: '912345670',
      navn: 'Kafé Kvadraturen',
      adrlinje1: 'Kirkegata 15',
      postnr: '0153',
      ...oslo,
      tilsynid: 'Z2405151000000000102T',
      dato: '15052024',
      tilsynsbesoektype: '1',
    },
    [1, 1, 1, 0, 0],
  ),
  // Newest inspection listed before an older one: the file's order is not the dates' order.
  inspection(
    {
      tilsynsobjektid: 'Z1601011200000000002B',
      orgnummer: '923456781',
      navn: 'Pizzabakeren Grünerløkka',
      adrlinje1: 'Thorvald Meyers gate 40',
      postnr: '0555',
      ...oslo,
      tilsynid: 'Z2502201000000000202T',
      dato: '20022025',
    },
    [0, 0, 0, 0, 0],
  ),
  inspection(
    {
      tilsynsobjektid: 'Z1601011200000000002B',
      orgnummer: '923456781',
      navn: 'Pizzabakeren Grünerløkka',
      adrlinje1: 'Thorvald Meyers gate 40',
      postnr: '0555',
      ...oslo,
      tilsynid: 'Z2206011000000000201T',
      dato: '1062022',
    },
    [3, 2, 3, 3, 1],
  ),
  inspection(
    {
      tilsynsobjektid: 'Z1601011200000000003C',
      orgnummer: '',
      navn: 'Sushi "Bølgen" & Co',
      adrlinje1: 'Karl Johans gate 22 B',
      adrlinje2: 'Inngang fra bakgården',
      postnr: '0159',
      ...oslo,
      tilsynid: 'Z2409091000000000301T',
      dato: '09092024',
    },
    [3, 3, 2, 3, 4],
  ),
  inspection(
    {
      tilsynsobjektid: 'Z1601011200000000004D',
      orgnummer: '934567892',
      navn: 'Nærbutikken Torggata',
      adrlinje1: 'Torggata 5',
      postnr: '0181',
      ...oslo,
      tilsynid: 'Z2511031000000000401T',
      dato: '03112025',
    },
    [0, 0, 0, 0, 5],
  ),
  inspection(
    {
      tilsynsobjektid: 'Z1601011200000000005E',
      orgnummer: '945678903',
      navn: 'Bryggen Fiskerestaurant',
      adrlinje1: 'Bryggen 9',
      postnr: '5003',
      poststed: 'BERGEN',
      tilsynid: 'Z2503121000000000501T',
      dato: '12032025',
    },
    [1, 1, 0, 1, 1],
  ),
  inspection(
    {
      tilsynsobjektid: 'Z1601011200000000006F',
      orgnummer: '956789014',
      navn: 'Ishavskafeen',
      adrlinje1: 'Storgata 60',
      postnr: '9008',
      poststed: 'TROMSØ',
      tilsynid: 'Z2407011000000000601T',
      dato: '01072024',
    },
    [2, 2, 1, 2, 2],
  ),
  inspection(
    {
      tilsynsobjektid: 'Z1601011200000000007G',
      orgnummer: '967890125',
      navn: 'Kantina på brygga',
      adrlinje1: '',
      postnr: '0150',
      ...oslo,
      tilsynid: 'Z2410011000000000701T',
      dato: '01102024',
    },
    [1, 1, 1, 1, 1],
  ),
]

/**
 * The smilefjes file as Mattilsynet publishes it: UTF-8 with a byte-order mark, `;`-separated,
 * a header of the columns, CRLF line ends (not seen in a capture; the reader takes both), and a
 * field quoted when it holds `;` or `"`.
 *
 * @example
 * smilefjesCsv(FIXTURE_LINES) // Buffer starting EF BB BF 'tilsynsobjektid;orgnummer;…'
 */
export function smilefjesCsv(lines: SmilefjesLine[], extra: string[] = []): Buffer {
  const cell = (value: string | undefined) => {
    const text = value ?? ''
    return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
  }
  const body = [
    SMILEFJES_COLUMNS.join(';'),
    ...lines.map((line) => SMILEFJES_COLUMNS.map((column) => cell(line[column])).join(';')),
    ...extra,
  ]
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${body.join('\r\n')}\r\n`, 'utf8')])
}

/**
 * The records of {@link smilefjesCsv} for the same lines as the import's reader yields them
 * from the bytes (byte-order mark dropped, quotes undone), header first, for the in-memory
 * dataset store.
 *
 * @example
 * smilefjesRecords(FIXTURE_LINES)[0]?.[0] // 'tilsynsobjektid'
 */
export function smilefjesRecords(lines: SmilefjesLine[]): string[][] {
  return [[...SMILEFJES_COLUMNS], ...lines.map((line) => SMILEFJES_COLUMNS.map((column) => line[column] ?? ''))]
}

/** Where Kartverket places the fixture's addresses (made up near the real places), by street line and postal code. */
export const FIXTURE_ADDRESS_POINTS: Array<{
  street: string
  postnr: string
  lat: number
  lon: number
  kommunenummer: string
  kommunenavn: string
  poststed: string
}> = [
  {
    street: 'Kirkegata 15',
    postnr: '0153',
    lat: 59.90868,
    lon: 10.74454,
    kommunenummer: '0301',
    kommunenavn: 'OSLO',
    poststed: 'OSLO',
  },
  {
    street: 'Thorvald Meyers gate 40',
    postnr: '0555',
    lat: 59.92291,
    lon: 10.75898,
    kommunenummer: '0301',
    kommunenavn: 'OSLO',
    poststed: 'OSLO',
  },
  {
    street: 'Karl Johans gate 22B',
    postnr: '0159',
    lat: 59.91253,
    lon: 10.74215,
    kommunenummer: '0301',
    kommunenavn: 'OSLO',
    poststed: 'OSLO',
  },
  {
    street: 'Bryggen 9',
    postnr: '5003',
    lat: 60.39726,
    lon: 5.32376,
    kommunenummer: '4601',
    kommunenavn: 'BERGEN',
    poststed: 'BERGEN',
  },
  {
    street: 'Storgata 60',
    postnr: '9008',
    lat: 69.64745,
    lon: 18.95412,
    kommunenummer: '5501',
    kommunenavn: 'TROMSØ',
    poststed: 'TROMSØ',
  },
]
