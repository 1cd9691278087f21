import { strToU8, zipSync } from 'fflate'

/**
 * CORDIS's project zips in their real format: `project.csv` and `organization.csv`
 * (`;`-separated, every field quoted, objectives holding `;`, doubled quotes and line breaks,
 * UTF-8), beside members the dataset does not read. The Horizon Europe zip writes amounts
 * with a point, an older H2020 export with a decimal comma.
 */
const projectHeader = 'id;acronym;status;title;startDate;endDate;totalCost;ecMaxContribution;legalBasis;topics;ecSignatureDate;frameworkProgramme;masterCall;subCall;fundingScheme;nature;objective;contentUpdateDate;rcn;grantDoi'
const organisationHeader = 'projectID;projectAcronym;organisationID;vatNumber;name;shortName;SME;activityType;street;postCode;city;country;nutsCode;geolocation;organizationURL;contactForm;order;role;ecContribution;netEcContribution;totalCost;endOfParticipation;active'

const quoted = (fields: string[]) => fields.map((f) => `"${f.replace(/"/g, '""')}"`).join(';')

export function horizonZip(): Uint8Array {
  const projects = [
    projectHeader,
    quoted(['101056765', 'GREENSEA', 'SIGNED', 'Green "blue" seas; a test', '2023-01-01', '2026-12-31', '5000000', '4500000', 'HORIZON.2.5', 'HORIZON-CL5', '2022-11-15', 'HORIZON', 'HORIZON-CL5-2022', 'HORIZON-CL5-2022-D2', 'HORIZON-RIA', '', 'Line one; with semicolon\nline two', '2024-01-02 10:00:00', '240001', '10.3030/101056765']),
  ]
  const organisations = [
    organisationHeader,
    quoted(['101056765', 'GREENSEA', '999988877', 'NO 974 760 843 MVA', 'NORGES TEKNISK-NATURVITENSKAPELIGE UNIVERSITET NTNU', 'NTNU', 'false', 'HES', 'Høgskoleringen 1', '7491', 'Trondheim', 'NO', 'NO060', '', '', '', '1', 'coordinator', '1250000.5', '1250000.5', '1250000.5', 'false', 'true']),
    quoted(['101056765', 'GREENSEA', '888877766', 'DE123456789', 'EXAMPLE GMBH', 'EX', 'true', 'PRC', 'Strasse 1', '10115', 'Berlin', 'DE', 'DE300', '', '', '', '2', 'participant', '900000', '900000', '900000', 'false', 'true']),
  ]
  return zipSync({
    'project.csv': strToU8(`${projects.join('\n')}\n`),
    'organization.csv': strToU8(`${organisations.join('\n')}\n`),
    'euroSciVoc.csv': strToU8('projectID;euroSciVocCode\n101056765;/23/45\n'),
  })
}

export function h2020Zip(): Uint8Array {
  const projects = [
    projectHeader,
    quoted(['820001', 'OLDPROJ', 'CLOSED', 'An older project', '2019-03-01', '2022-02-28', '2000000,00', '1800000,00', 'H2020-EU.3.3.', 'LC-SC3', '2019-01-10', 'H2020', 'H2020-LC-SC3-2018', '', 'RIA', '', 'Objective', '2023-05-05 10:00:00', '220001', '']),
  ]
  const organisations = [
    organisationHeader,
    // Registered without a VAT number, but with the PIC NTNU uses elsewhere.
    quoted(['820001', 'OLDPROJ', '999988877', '', 'NORGES TEKNISK-NATURVITENSKAPELIGE UNIVERSITET NTNU', 'NTNU', 'false', 'HES', '', '7491', 'Trondheim', 'NO', 'NO060', '', '', '', '3', 'participant', '400000,25', '400000,25', '400000,25', 'false', 'false']),
    quoted(['820001', 'OLDPROJ', '777766655', 'NO912346234MVA', 'SESAM HOLDING AS', 'SESAM', 'true', 'PRC', '', '0150', 'Oslo', 'NO', 'NO081', '', '', '', '1', 'coordinator', '1000000,00', '1000000,00', '1000000,00', 'false', 'false']),
  ]
  return zipSync({
    'project.csv': strToU8(`${projects.join('\n')}\n`),
    'organization.csv': strToU8(`${organisations.join('\n')}\n`),
  })
}
