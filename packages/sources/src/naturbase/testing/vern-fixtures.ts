/**
 * The protected areas the fake `vern` layer holds: our own data in the shape of the layer's
 * Esri JSON (attribute names as public code that reads the live layer uses them; no full
 * capture of the live service was found). Areas in and around Oslo, drawn coarsely, each
 * chosen for a case: a lake reserve with a hole (Østensjøvannet), a C-shaped hillside
 * (Ekebergskråningen), a reserve of two islands plus an islet sent as a second feature under
 * the same id (Gressholmen–Rambergøya), a landscape protection area (Hovedøya) and a large
 * reserve east of the city across four municipalities (Østmarka). Rings run as Esri writes
 * them: outer rings clockwise, holes counter-clockwise. Dates are midnight in Norway as
 * milliseconds since 1970, so the UTC day is the day before.
 */
export interface VernFixture {
  attributes: Record<string, string | number | null>
  rings: number[][][]
}

/** Milliseconds of midnight in Norway (winter time, UTC+1) on a date: 23:00 UTC the day before. */
const norwegianMidnight = (year: number, month: number, day: number) => Date.UTC(year, month - 1, day) - 3_600_000

const area = (
  objectId: number,
  id: string,
  navn: string,
  offisieltNavn: string,
  verneform: string,
  fields: {
    kommune: string
    iucn: string | null
    vernedato: number | null
    verneforskrift: string | null
    forvaltningsmyndighet: string
  },
  rings: number[][][],
): VernFixture => ({
  attributes: {
    OBJECTID: objectId,
    naturvernId: id,
    navn,
    offisieltNavn,
    verneform,
    verneplan: 'Verneplan for våtmark',
    forvaltningsmyndighet: fields.forvaltningsmyndighet,
    kommune: fields.kommune,
    iucn: fields.iucn,
    vernedato: fields.vernedato,
    faktaark: `https://faktaark.naturbase.no/?id=${id}`,
    verneforskrift: fields.verneforskrift,
    majorEcosystemType: 'Terrestrisk',
  },
  rings,
})

const statsforvalteren = 'Statsforvalteren i Oslo og Viken'

/** The fake layer's features, in the order it answers them (not by distance, as the real service does not sort either). */
export const vernFixtures: VernFixture[] = [
  area(
    11,
    'VV00002860',
    'Østmarka',
    'Østmarka naturreservat',
    'Naturreservat',
    {
      kommune: 'Oslo (0301),Nordre Follo (3207),Lillestrøm (3205),Enebakk (3220)',
      iucn: 'IUCN_Ia',
      vernedato: norwegianMidnight(2006, 12, 8),
      verneforskrift: 'http://www.lovdata.no/for/lf/mv/xv-20061208-1368.html',
      forvaltningsmyndighet: statsforvalteren,
    },
    [
      [
        [10.88, 59.83],
        [10.88, 59.9],
        [10.97, 59.9],
        [10.97, 59.83],
        [10.88, 59.83],
      ],
    ],
  ),
  area(
    4,
    'VV00000972',
    'Østensjøvannet',
    'Østensjøvannet naturreservat',
    'Naturreservat',
    {
      kommune: 'Oslo',
      iucn: 'IUCN_IV',
      vernedato: norwegianMidnight(1992, 12, 18),
      verneforskrift: 'http://www.lovdata.no/for/lf/mv/xv-19921218-1083.html',
      forvaltningsmyndighet: statsforvalteren,
    },
    [
      [
        [10.82, 59.878],
        [10.818, 59.893],
        [10.826, 59.897],
        [10.834, 59.889],
        [10.831, 59.879],
        [10.82, 59.878],
      ],
      // The open water in the middle is not part of the reserve's land and reed belts (a hole, counter-clockwise).
      [
        [10.824, 59.884],
        [10.829, 59.884],
        [10.829, 59.889],
        [10.824, 59.889],
        [10.824, 59.884],
      ],
    ],
  ),
  area(
    7,
    'VV00002995',
    'Ekebergskråningen',
    'Ekebergskråningen naturreservat',
    'Naturreservat',
    {
      kommune: 'Oslo',
      iucn: 'IUCN_Ia',
      vernedato: norwegianMidnight(2011, 2, 25),
      verneforskrift: null,
      forvaltningsmyndighet: statsforvalteren,
    },
    [
      [
        [10.76, 59.895],
        [10.758, 59.903],
        [10.764, 59.907],
        [10.77, 59.907],
        [10.77, 59.905],
        [10.763, 59.903],
        [10.762, 59.898],
        [10.768, 59.896],
        [10.768, 59.894],
        [10.76, 59.895],
      ],
    ],
  ),
  area(
    5,
    'VV00000970',
    'Gressholmen-Rambergøya',
    'Gressholmen-Rambergøya naturreservat',
    'Naturreservat',
    {
      kommune: 'Oslo',
      iucn: 'IUCN_IV',
      vernedato: norwegianMidnight(1978, 12, 1),
      verneforskrift: 'http://www.lovdata.no/for/lf/mv/xv-19781201-0000.html',
      forvaltningsmyndighet: statsforvalteren,
    },
    [
      [
        [10.708, 59.881],
        [10.709, 59.887],
        [10.719, 59.888],
        [10.72, 59.883],
        [10.708, 59.881],
      ],
      [
        [10.723, 59.877],
        [10.724, 59.881],
        [10.731, 59.881],
        [10.731, 59.877],
        [10.723, 59.877],
      ],
    ],
  ),
  area(
    6,
    'VV00000965',
    'Hovedøya',
    'Hovedøya landskapsvernområde',
    'Landskapsvernomraade',
    {
      kommune: 'Oslo',
      iucn: 'IUCN_V',
      vernedato: norwegianMidnight(1978, 12, 1),
      verneforskrift: null,
      forvaltningsmyndighet: statsforvalteren,
    },
    [
      [
        [10.726, 59.893],
        [10.727, 59.898],
        [10.735, 59.898],
        [10.736, 59.894],
        [10.726, 59.893],
      ],
    ],
  ),
  // A part of Gressholmen-Rambergøya kept as a feature of its own: an islet east of the two islands.
  area(
    12,
    'VV00000970',
    'Gressholmen-Rambergøya',
    'Gressholmen-Rambergøya naturreservat',
    'Naturreservat',
    {
      kommune: 'Oslo',
      iucn: 'IUCN_IV',
      vernedato: norwegianMidnight(1978, 12, 1),
      verneforskrift: 'http://www.lovdata.no/for/lf/mv/xv-19781201-0000.html',
      forvaltningsmyndighet: statsforvalteren,
    },
    [
      [
        [10.733, 59.884],
        [10.733, 59.885],
        [10.735, 59.885],
        [10.735, 59.884],
        [10.733, 59.884],
      ],
    ],
  ),
]

/** The fields part of the layer's answer, as ArcGIS lists them before the features. */
export const vernFields = [
  { name: 'OBJECTID', type: 'esriFieldTypeOID', alias: 'OBJECTID' },
  { name: 'naturvernId', type: 'esriFieldTypeString', alias: 'naturvernId', length: 10 },
  { name: 'navn', type: 'esriFieldTypeString', alias: 'navn', length: 255 },
  { name: 'offisieltNavn', type: 'esriFieldTypeString', alias: 'offisieltNavn', length: 255 },
  { name: 'verneform', type: 'esriFieldTypeString', alias: 'verneform', length: 50 },
  { name: 'verneplan', type: 'esriFieldTypeString', alias: 'verneplan', length: 100 },
  { name: 'forvaltningsmyndighet', type: 'esriFieldTypeString', alias: 'forvaltningsmyndighet', length: 255 },
  { name: 'kommune', type: 'esriFieldTypeString', alias: 'kommune', length: 500 },
  { name: 'iucn', type: 'esriFieldTypeString', alias: 'iucn', length: 20 },
  { name: 'vernedato', type: 'esriFieldTypeDate', alias: 'vernedato', length: 8 },
  { name: 'faktaark', type: 'esriFieldTypeString', alias: 'faktaark', length: 255 },
  { name: 'verneforskrift', type: 'esriFieldTypeString', alias: 'verneforskrift', length: 255 },
  { name: 'majorEcosystemType', type: 'esriFieldTypeString', alias: 'majorEcosystemType', length: 50 },
]
