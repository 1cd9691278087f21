// The records of CORDIS's project zips, without the zipper that makes the files (fflate, which
// @allmenning/sources does not depend on): the source's own tests load them into the in-memory
// store; cordis-fixtures.ts writes the same records into the zips the import of
// @allmenning/datasets reads.

// The members' quirks (docs/upstreams/cordis.md): objectives holding `;`, quotes and line
// breaks; `organization.csv` with `contentUpdateDate` and `rcn` before `order`, amounts mixing a
// decimal point and a decimal comma within one row, an empty amount, empty `SME` and `active`,
// and `geolocation` as `lat,lon`.
const projectHeader =
  'id;acronym;status;title;startDate;endDate;totalCost;ecMaxContribution;legalBasis;topics;ecSignatureDate;frameworkProgramme;masterCall;subCall;fundingScheme;nature;objective;contentUpdateDate;rcn;grantDoi'
const organisationHeader =
  'projectID;projectAcronym;organisationID;vatNumber;name;shortName;SME;activityType;street;postCode;city;country;nutsCode;geolocation;organizationURL;contactForm;contentUpdateDate;rcn;order;role;ecContribution;netEcContribution;totalCost;endOfParticipation;active'

/** The records of the two members the dataset reads, header first, as the import's reader yields them. */
export interface CordisRecords {
  'project.csv': string[][]
  'organization.csv': string[][]
}

/**
 * The records of the HORIZON zip: one project, a Norwegian coordinator and a German partner.
 *
 * @example
 * const members = horizonRecords()
 * await store.loadFiles(cordis, [{ file: 'cordis-HORIZONprojects-csv.zip', member: 'project.csv', records: members['project.csv'] }])
 */
export function horizonRecords(): CordisRecords {
  const projects: string[][] = [
    projectHeader.split(';'),
    [
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
    ],
  ]
  const organisations: string[][] = [
    organisationHeader.split(';'),
    [
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
    ],
    [
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
    ],
  ]
  return { 'project.csv': projects, 'organization.csv': organisations }
}

/**
 * The records of the H2020 zip: one project, NTNU by its PIC alone and a coordinator by VAT number.
 *
 * @example
 * h2020Records()['organization.csv'].length // 3, header first
 */
export function h2020Records(): CordisRecords {
  const projects: string[][] = [
    projectHeader.split(';'),
    [
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
    ],
  ]
  const organisations: string[][] = [
    organisationHeader.split(';'),
    // Registered without a VAT number, but with the PIC NTNU uses elsewhere.
    [
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
    ],
    [
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
    ],
  ]
  return { 'project.csv': projects, 'organization.csv': organisations }
}
