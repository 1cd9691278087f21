import { strToU8, zipSync } from 'fflate'

/**
 * CORDIS's project zips in their real format (docs/upstreams/cordis.md): `project.csv` and
 * `organization.csv`, `;`-separated with every field and the header quoted, objectives holding
 * `;`, doubled quotes and line breaks, UTF-8, beside members the dataset does not read.
 * `organization.csv` carries `contentUpdateDate` and `rcn` before `order`; its amounts mix a
 * decimal point and a decimal comma within one row, an amount may be empty, `SME` and
 * `active` may be empty, and `geolocation` is `lat,lon`.
 */
const projectHeader =
  'id;acronym;status;title;startDate;endDate;totalCost;ecMaxContribution;legalBasis;topics;ecSignatureDate;frameworkProgramme;masterCall;subCall;fundingScheme;nature;objective;contentUpdateDate;rcn;grantDoi'
const organisationHeader =
  'projectID;projectAcronym;organisationID;vatNumber;name;shortName;SME;activityType;street;postCode;city;country;nutsCode;geolocation;organizationURL;contactForm;contentUpdateDate;rcn;order;role;ecContribution;netEcContribution;totalCost;endOfParticipation;active'

const quoted = (fields: string[]) => fields.map((f) => `"${f.replace(/"/g, '""')}"`).join(';')
// The publisher quotes the header's names too.
const quotedHeader = (header: string) => quoted(header.split(';'))

export function horizonZip(): Uint8Array {
  const projects = [
    quotedHeader(projectHeader),
    quoted([
      '101056765',
      'GREENSEA',
      'SIGNED',
      'Green "blue" seas; a test',
      '2023-01-01',
      '2026-12-31',
      '5000000',
      '4500000',
      'HORIZON.2.5',
      'HORIZON-CL5',
      '2022-11-15',
      'HORIZON',
      'HORIZON-CL5-2022',
      'HORIZON-CL5-2022-D2',
      'HORIZON-RIA',
      '',
      'Line one; with semicolon\nline two',
      '2024-01-02 10:00:00',
      '240001',
      '10.3030/101056765',
    ]),
  ]
  const organisations = [
    quotedHeader(organisationHeader),
    quoted([
      '101056765',
      'GREENSEA',
      '999988877',
      'NO 974 760 843 MVA',
      'NORGES TEKNISK-NATURVITENSKAPELIGE UNIVERSITET NTNU',
      'NTNU',
      'false',
      'HES',
      'Høgskoleringen 1',
      '7491',
      'Trondheim',
      'NO',
      'NO060',
      '63.4189,10.4027',
      '',
      'https://ec.europa.eu/info/funding-tenders/opportunities/portal/screen/contact-form/project/999988877/101056765',
      '2024-01-02 10:00:00',
      '2450001',
      '1',
      'coordinator',
      '1250000.5',
      '1250000.5',
      '1250000,5',
      'false',
      '',
    ]),
    quoted([
      '101056765',
      'GREENSEA',
      '888877766',
      'DE123456789',
      'EXAMPLE GMBH',
      'EX',
      '',
      'PRC',
      'Strasse 1',
      '10115',
      'Berlin',
      'DE',
      'DE300',
      '52.52,13.40',
      '',
      '',
      '2024-01-02 10:00:00',
      '2450002',
      '2',
      'partner',
      '',
      '0',
      '900000',
      'false',
      '',
    ]),
  ]
  return zipSync({
    'project.csv': strToU8(`${projects.join('\n')}\n`),
    'organization.csv': strToU8(`${organisations.join('\n')}\n`),
    'euroSciVoc.csv': strToU8('projectID;euroSciVocCode\n101056765;/23/45\n'),
  })
}

export function h2020Zip(): Uint8Array {
  const projects = [
    quotedHeader(projectHeader),
    quoted([
      '820001',
      'OLDPROJ',
      'CLOSED',
      'An older project',
      '2019-03-01',
      '2022-02-28',
      '2000000,00',
      '1800000,00',
      'H2020-EU.3.3.',
      'LC-SC3',
      '2019-01-10',
      'H2020',
      'H2020-LC-SC3-2018',
      '',
      'RIA',
      '',
      'Objective',
      '2023-05-05 10:00:00',
      '220001',
      '',
    ]),
  ]
  const organisations = [
    quotedHeader(organisationHeader),
    // Registered without a VAT number, but with the PIC NTNU uses elsewhere.
    quoted([
      '820001',
      'OLDPROJ',
      '999988877',
      '',
      'NORGES TEKNISK-NATURVITENSKAPELIGE UNIVERSITET NTNU',
      'NTNU',
      'false',
      'HES',
      '',
      '7491',
      'Trondheim',
      'NO',
      'NO060',
      '63.4189,10.4027',
      '',
      '',
      '2023-05-05 10:00:00',
      '2200002',
      '3',
      'participant',
      '400000.25',
      '400000.25',
      '400000,25',
      'false',
      '',
    ]),
    quoted([
      '820001',
      'OLDPROJ',
      '777766655',
      'NO912346234MVA',
      'SESAM HOLDING AS',
      'SESAM',
      'true',
      'PRC',
      '',
      '0150',
      'Oslo',
      'NO',
      'NO081',
      '59.9127,10.7461',
      '',
      '',
      '2023-05-05 10:00:00',
      '2200003',
      '1',
      'coordinator',
      '1000000',
      '1000000',
      '1000000,00',
      'false',
      '',
    ]),
  ]
  return zipSync({
    'project.csv': strToU8(`${projects.join('\n')}\n`),
    'organization.csv': strToU8(`${organisations.join('\n')}\n`),
  })
}
