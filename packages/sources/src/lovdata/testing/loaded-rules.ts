import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DatasetDefinition } from '@allmenning/core/source'
import { createSqliteDatasetStore, importDataset, type ImportResult, type SqliteDatasetStore } from '@allmenning/datasets'
import type { ArchiveFile } from '../archive-reader.js'
import { lovdataLaws, lovdataRegulations } from '../rule-datasets.js'
import { buildLovdataArchive } from './archive-builder.js'
import { lawFixtures, regulationFixtures } from './fixtures.js'
import { lovdataDocumentXml, sectionXml } from './lovdata-markup.js'

/**
 * A law that names straffeloven and aksjeloven in its title (in brackets, too) and text, so a
 * search for either must still rank the law itself first.
 */
export function amendmentLaw(): ArchiveFile {
  const dokid = 'NL/lov/2020-06-19-99'
  const text = 'I straffeloven og aksjeloven gjøres endringer. Straffeloven § 5a og aksjeloven § 3-1 skal lyde som følger.'
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
        sectionXml(measuring, { number: '1', title: 'Formål', ledd: ['Forskriften skal sikre at leietakere bor trygt.'] }, 'paragraf-1', 'h2'),
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
        sectionXml(protection, { number: '4', title: 'Tiltaksnivå', ledd: ['Arbeidsgiver skal sette i verk tiltak mot radon når nivået overstiger tiltaksnivået.'] }, 'paragraf-4', 'h2'),
      ),
    },
  ]
}

/** A dataset store with both rule archives loaded, as `allmenning datasets import` loads them. */
export interface LoadedRules {
  store: SqliteDatasetStore
  laws: ImportResult
  regulations: ImportResult
  close(): void
}

/**
 * Builds `gjeldende-lover.tar.bz2` (the law fixtures and {@link amendmentLaw}) and
 * `gjeldende-sentrale-forskrifter.tar.bz2` (with {@link radonRegulations}) in the real layout and imports them into a store
 * in a temporary directory.
 *
 * @example
 * const rules = await loadRuleDatasets()
 * createGateway({ sources: [lovdata()], datasets: rules.store })
 */
export async function loadRuleDatasets(): Promise<LoadedRules> {
  const dir = mkdtempSync(join(tmpdir(), 'allmenning-lovdata-'))
  const path = join(dir, 'allmenning.sqlite')
  const load = async (dataset: DatasetDefinition, file: string, files: ArchiveFile[]) => {
    const local = join(dir, file)
    writeFileSync(local, await buildLovdataArchive(files))
    return importDataset({ path, dataset, inputs: [{ file, path: local, url: null }], publishedAt: '2026-11-20T04:00:00Z' })
  }
  const laws = await load(lovdataLaws, 'gjeldende-lover.tar.bz2', [...lawFixtures(), amendmentLaw()])
  const regulations = await load(lovdataRegulations, 'gjeldende-sentrale-forskrifter.tar.bz2', [...regulationFixtures(), ...radonRegulations()])
  const store = createSqliteDatasetStore({ path })
  return {
    store,
    laws,
    regulations,
    close() {
      store.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
