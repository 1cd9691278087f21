import type { ArchiveFile } from '../archive-reader.js'
import { chapterXml, listXml, lovdataDocumentXml, sectionXml } from './lovdata-markup.js'

const JD = 'Justis- og beredskapsdepartementet'

/** Straffeloven: chapters, plain ledd, a section with a list and a footnote reference, a change note. */
function straffeloven(): ArchiveFile {
  const dokid = 'NL/lov/2005-05-20-28'
  const body = [
    chapterXml(1, 'Kapittel 1. Straffelovgivningens virkeområde', [
      sectionXml(
        dokid,
        {
          number: '1',
          title: 'Straffelovgivningens saklige virkeområde',
          ledd: [
            'Straffelovgivningen gjelder for alle straffbare handlinger når ikke annet er bestemt ved eller i medhold av lov.',
          ],
        },
        'kapittel-1-paragraf-1',
      ),
      sectionXml(
        dokid,
        {
          number: '5',
          title: 'Handlinger i utlandet',
          ledd: [
            'Utenfor virkeområdet etter § 4 gjelder straffelovgivningen også for handlinger foretatt i utlandet av\n' +
              listXml(
                'a',
                [
                  'norsk statsborger,',
                  'person med bosted i Norge, eller',
                  'person som handler på vegne av et foretak registrert i Norge,',
                ],
                'kapittel-1-paragraf-5-ledd-1',
              ) +
              '\nnår handlingen også er straffbar etter loven i landet der den er foretatt<sup class="footnotereference">1</sup>.',
          ],
          changes: 'Endret ved lover 19 juni 2009 nr. 74 (ikr. 1 okt 2015), 24 juni 2011 nr. 32.',
        },
        'kapittel-1-paragraf-5',
      ),
    ]),
    chapterXml(2, 'Kapittel 2. Vilkår for straff', [
      sectionXml(
        dokid,
        {
          number: '5a',
          title: 'Forbud mot dobbeltstraff',
          ledd: ['Ingen kan straffes to ganger for samme handling &#8211; heller ikke i Norge og på Ærø.'],
        },
        'kapittel-2-paragraf-1',
      ),
    ]),
  ].join('\n')
  return {
    path: 'nl/nl-20050520-028.xml',
    xml: lovdataDocumentXml(
      {
        dokid,
        legacyId: 'LOV-2005-05-20-28',
        refId: 'lov/2005-05-20-28',
        title: 'Lov om straff (straffeloven)',
        titleShort: 'Straffeloven – strl',
        ministries: [JD],
        dateInForce: ['2015-10-01'],
        lastChangeInForce: '2026-07-01',
        lastChangedBy: 'lov/2026-06-20-60',
      },
      body,
    ),
  }
}

/** Forvaltningsloven: an id without a number and a section with a letter (§ 11 a). */
function forvaltningsloven(): ArchiveFile {
  const dokid = 'NL/lov/1967-02-10'
  const body = [
    sectionXml(
      dokid,
      {
        number: '11',
        title: 'Veiledningsplikt',
        ledd: ['Forvaltningsorganene har innenfor sitt saksområde en alminnelig veiledningsplikt.'],
      },
      'paragraf-11',
      'h2',
    ),
    sectionXml(
      dokid,
      {
        number: '11a',
        title: 'Saksbehandlingstid, foreløpig svar',
        ledd: [
          'Forvaltningsorganet skal forberede og avgjøre saken uten ugrunnet opphold.',
          'Dersom det må ventes at det vil ta uforholdsmessig lang tid før en henvendelse kan besvares, skal det snarest mulig gis et foreløpig svar.',
        ],
      },
      'paragraf-11a',
      'h2',
    ),
  ].join('\n')
  return {
    path: 'nl/nl-19670210-000.xml',
    xml: lovdataDocumentXml(
      {
        dokid,
        legacyId: 'LOV-1967-02-10',
        refId: 'lov/1967-02-10',
        title: 'Lov om behandlingsmåten i forvaltningssaker (forvaltningsloven)',
        titleShort: 'Forvaltningsloven – fvl',
        ministries: [JD],
        dateInForce: ['1970-01-01'],
        lastChangeInForce: '2025-01-01',
      },
      `<p class="preamble">Jfr. tidligere lov om behandlingsmåten.</p>\n${body}`,
    ),
  }
}

/** Grunnloven in bokmål, and its nynorsk twin (`-nn.xml`). */
function grunnloven(nynorsk: boolean): ArchiveFile {
  const dokid = nynorsk ? 'NL/lov/1814-05-17-nn' : 'NL/lov/1814-05-17'
  const section = nynorsk
    ? 'Kongeriket Noreg er eit fritt, sjølvstendig, udeleleg og uavhendeleg rike. Regjeringsforma er avgrensa og arveleg monarkisk.'
    : 'Kongeriket Norge er et fritt, selvstendig, udelelig og uavhendelig rike. Dets regjeringsform er innskrenket og arvelig monarkisk.'
  const heading = nynorsk ? 'A. Om statsforma og religionen' : 'A. Om statsformen og religionen'
  return {
    path: nynorsk ? 'nl/nl-18140517-000-nn.xml' : 'nl/nl-18140517-000.xml',
    xml: lovdataDocumentXml(
      {
        dokid,
        legacyId: nynorsk ? 'LOV-1814-05-17-nn' : 'LOV-1814-05-17',
        refId: nynorsk ? 'lov/1814-05-17-nn' : 'lov/1814-05-17',
        title: nynorsk ? 'Kongeriket Noregs grunnlov' : 'Kongeriket Norges Grunnlov',
        titleShort: nynorsk ? 'Grunnlova – Grl' : 'Grunnloven – Grl',
        ministries: ['Stortinget'],
        dateInForce: ['1814-05-17'],
        lastChangeInForce: '2024-05-14',
      },
      chapterXml(1, heading, [sectionXml(dokid, { number: '1', ledd: [section] }, 'kapittel-1-paragraf-1')]),
    ),
  }
}

/** Aksjeloven: a short title users search for. */
function aksjeloven(): ArchiveFile {
  const dokid = 'NL/lov/1997-06-13-44'
  return {
    path: 'nl/nl-19970613-044.xml',
    xml: lovdataDocumentXml(
      {
        dokid,
        legacyId: 'LOV-1997-06-13-44',
        refId: 'lov/1997-06-13-44',
        title: 'Lov om aksjeselskaper (aksjeloven)',
        titleShort: 'Aksjeloven – asl',
        ministries: ['Nærings- og fiskeridepartementet'],
        dateInForce: ['1999-01-01'],
        lastChangeInForce: '2026-01-01',
      },
      chapterXml(3, 'Kapittel 3. Selskapets midler', [
        sectionXml(
          dokid,
          { number: '3-1', title: 'Aksjekapital', ledd: ['Aksjekapitalen må minst være 30 000 kroner.'] },
          'kapittel-3-paragraf-1',
        ),
        sectionXml(
          dokid,
          {
            number: '3-2',
            title: 'Verdien av innskudd',
            ledd: ['Innskudd som ytes til selskapet, skal minst tilsvare aksjeinnskuddet.'],
          },
          'kapittel-3-paragraf-2',
        ),
        sectionXml(
          dokid,
          { number: '3-3', title: 'Tegning', ledd: ['Aksjene tegnes i stiftelsesdokumentet.'] },
          'kapittel-3-paragraf-3',
        ),
      ]),
    ),
  }
}

/** TEK17 § 13-5 exactly as the real file nests it: numbered ledd, a list of listArticle/legalP, a change note. */
function tek17(): ArchiveFile {
  const dokid = 'SF/forskrift/2017-06-19-840'
  const id = 'kapittel-13-kapittel-3-paragraf-1'
  const radon =
    `<article class="legalArticle" data-name="§13-5" id="${id}" data-lovdata-URL="${dokid}/§13-5">` +
    `<h4 class="legalArticleHeader"><span class="legalArticleValue">§ 13-5</span>. <span class="legalArticleTitle">Radon</span></h4>\n` +
    `<article class="numberedLegalP" data-numerator="1" id="${id}-nummer-1">(1) I bygning med rom for varig opphold skal &#229;rsmiddelverdi for radonkonsentrasjon ikke overstige 200 Bq/m<sup>3</sup>.</article>\n` +
    `<article class="numberedLegalP" data-numerator="2" id="${id}-nummer-2">(2) Bygning med rom for varig opphold skal\n` +
    listXml(
      'a',
      [
        'ha radonsperre mot grunnen, og',
        'være tilrettelagt for trykkreduserende tiltak i grunnen under bygningen som kan aktiveres dersom målt radonkonsentrasjon overstiger 100 Bq/m<sup>3</sup>.',
      ],
      `${id}-nummer-2`,
    ) +
    `</article>\n` +
    `<article class="numberedLegalP" data-numerator="3" id="${id}-nummer-3">Kravene i annet ledd gjelder ikke dersom det kan dokumenteres at tiltakene ikke er nødvendige.</article>\n` +
    `<article class="changesToParent">Endret ved forskrift 25 juni 2024 nr. 1234 (i kraft 1 juli 2024).</article>\n</article>`
  const body = `<section class="section" data-name="kap13" id="kapittel-13"><h2>Kapittel 13. Miljø og helse</h2>\n<section class="section" data-name="kap13-3" id="kapittel-13-kapittel-3"><h3>III. Radon</h3>\n${radon}\n</section></section>`
  return {
    path: 'sf/sf-20170619-0840.xml',
    xml: lovdataDocumentXml(
      {
        dokid,
        legacyId: 'FOR-2017-06-19-840',
        refId: 'forskrift/2017-06-19-840',
        title: 'Forskrift om tekniske krav til byggverk (byggteknisk forskrift)',
        titleShort: 'Byggteknisk forskrift (TEK17)',
        ministries: ['Kommunal- og distriktsdepartementet'],
        dateInForce: ['2017-07-01'],
        lastChangeInForce: '2024-07-01',
        basedOn: ['lov/2008-06-27-71/§29-5', 'lov/2008-06-27-71/§29-7'],
      },
      body,
    ),
  }
}

/**
 * The laws of the small test archive, in the layout of `gjeldende-lover.tar.bz2`
 * (`nl/nl-YYYYMMDD-NNN.xml`, a nynorsk twin as `…-nn.xml`).
 *
 * @example
 * const archive = await buildLovdataArchive(lawFixtures())
 */
export function lawFixtures(): ArchiveFile[] {
  return [grunnloven(false), grunnloven(true), forvaltningsloven(), aksjeloven(), straffeloven()]
}

/**
 * The regulations of the small test archive, as in `gjeldende-sentrale-forskrifter.tar.bz2`
 * (`sf/sf-YYYYMMDD-NNNN.xml`).
 *
 * @example
 * const archive = await buildLovdataArchive(regulationFixtures())
 */
export function regulationFixtures(): ArchiveFile[] {
  return [tek17()]
}

/**
 * A law that names straffeloven and aksjeloven in its title (in brackets, too) and text, so a
 * search for either must still rank the law itself first.
 */
export function amendmentLaw(): ArchiveFile {
  const dokid = 'NL/lov/2020-06-19-99'
  const text =
    'I straffeloven og aksjeloven gjøres endringer. Straffeloven § 5a og aksjeloven § 3-1 skal lyde som følger.'
  return {
    path: 'nl/nl-20200619-099.xml',
    xml: lovdataDocumentXml(
      {
        dokid,
        legacyId: 'LOV-2020-06-19-99',
        refId: 'lov/2020-06-19-99',
        title: 'Lov om endringer i straffeloven og aksjeloven (straffeloven og aksjeloven mv.)',
        ministries: ['Justis- og beredskapsdepartementet'],
        dateInForce: ['2020-07-01'],
      },
      sectionXml(dokid, { number: '1', ledd: [text, text] }, 'paragraf-1', 'h2'),
    ),
  }
}

/**
 * Two regulations beside TEK17 (whose section heading "Radon" is not in its title): one with
 * "radon" in its title, one with it only in a section's text, so a search for "radon" shows
 * the order title, heading, text.
 */
export function radonRegulations(): ArchiveFile[] {
  const measuring = 'SF/forskrift/2021-03-15-812'
  const protection = 'SF/forskrift/2022-11-02-1930'
  return [
    {
      path: 'sf/sf-20210315-0812.xml',
      xml: lovdataDocumentXml(
        {
          dokid: measuring,
          legacyId: 'FOR-2021-03-15-812',
          refId: 'forskrift/2021-03-15-812',
          title: 'Forskrift om måling av radon i utleide boliger',
          ministries: ['Helse- og omsorgsdepartementet'],
          dateInForce: ['2021-04-01'],
        },
        sectionXml(
          measuring,
          { number: '1', title: 'Formål', ledd: ['Forskriften skal sikre at leietakere bor trygt.'] },
          'paragraf-1',
          'h2',
        ),
      ),
    },
    {
      path: 'sf/sf-20221102-1930.xml',
      xml: lovdataDocumentXml(
        {
          dokid: protection,
          legacyId: 'FOR-2022-11-02-1930',
          refId: 'forskrift/2022-11-02-1930',
          title: 'Forskrift om vern mot stråling i arbeidslivet',
          ministries: ['Arbeids- og inkluderingsdepartementet'],
          dateInForce: ['2023-01-01'],
        },
        sectionXml(
          protection,
          {
            number: '4',
            title: 'Tiltaksnivå',
            ledd: ['Arbeidsgiver skal sette i verk tiltak mot radon når nivået overstiger tiltaksnivået.'],
          },
          'paragraf-4',
          'h2',
        ),
      ),
    },
  ]
}
