import { defineUpstream } from '@allmenning/core/source'

/**
 * Artsdatabanken's Artskart public API (keyless). Its observation list answers
 * `{TotalCount, Observations[]}` with every field of a row as text, coordinates included,
 * sometimes with a decimal comma. Most of its datasets are CC BY 4.0; each dataset (and the
 * institution behind it) is credited on its rows, as Artsdatabanken asks.
 */
export const artskartApi = defineUpstream({
  id: 'artskart',
  name: 'Artsdatabanken Artskart',
  baseUrl: 'https://artskart.artsdatabanken.no/publicapi/api',
  publisher:
    'Artsdatabanken (Norwegian Biodiversity Information Centre): data fra Artskart; credit the dataset and institution of each observation',
  license: 'CC BY 4.0 (most datasets; each dataset keeps its own terms)',
  // A page of 5 000 rows of about a kilobyte each; the gateway's 2 MiB default would refuse it.
  maxBodyBytes: 8 * 1024 * 1024,
})
