import { defineUpstream } from '@allmenning/core/source'

/**
 * Kartverket's water-level API ("Se havnivå", `tideapi.php`, on vannstand.kartverket.no since
 * the old api.sehavniva.no host was retired in 2025): tides, observed and forecast sea level for
 * any point on the Norwegian coast. Free, no key; Kartverket asks users to stay well under 20
 * requests a second and to keep static data (tide tables) rather than ask again. Licence
 * CC BY 4.0, credit "© Kartverket" with a link, carried by `publisher` into every answer's
 * `_provenance`. `ALLMENNING_UPSTREAM_KARTVERKET_TIDE` overrides the base URL in the examples.
 */
export const kartverketTide = defineUpstream({
  id: 'kartverket_tide',
  name: 'Kartverket water-level API (Se havnivå)',
  baseUrl: 'https://vannstand.kartverket.no',
  publisher: '© Kartverket, https://www.kartverket.no (water-level API, vannstand.kartverket.no)',
  license: 'CC BY 4.0',
  // Three days of hourly values in four series is some 40 KB of XML; a fortnight's table far less.
  maxBodyBytes: 1024 * 1024,
})
