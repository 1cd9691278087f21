import { strToU8, zipSync } from 'fflate'
import { type CordisRecords, h2020Records, horizonRecords } from './cordis-records.js'

// The records too, for the tests that compare what the import reads from these zips with them.
export { h2020Records, horizonRecords } from './cordis-records.js'

// The publisher quotes every field, the header's names too.
const quoted = (fields: string[]) => fields.map((f) => `"${f.replace(/"/g, '""')}"`).join(';')
const csv = (records: string[][]) => strToU8(`${records.map(quoted).join('\n')}\n`)
const members = (records: CordisRecords) => ({
  'project.csv': csv(records['project.csv']),
  'organization.csv': csv(records['organization.csv']),
})

/**
 * CORDIS's project zips in their real format (docs/upstreams/cordis.md): `project.csv` and
 * `organization.csv`, `;`-separated with every field and the header quoted, objectives holding
 * `;`, doubled quotes and line breaks, UTF-8, beside members the dataset does not read.
 * `organization.csv` carries `contentUpdateDate` and `rcn` before `order`; its amounts mix a
 * decimal point and a decimal comma within one row, an amount may be empty, `SME` and
 * `active` may be empty, and `geolocation` is `lat,lon`.
 */
export function horizonZip(): Uint8Array {
  // Beside a member the dataset does not read.
  return zipSync({
    ...members(horizonRecords()),
    'euroSciVoc.csv': strToU8('projectID;euroSciVocCode\n101056765;/23/45\n'),
  })
}

/** The H2020 zip: the records of {@link h2020Records}. */
export function h2020Zip(): Uint8Array {
  return zipSync(members(h2020Records()))
}
