import { buildLovdataArchive } from './archive-builder.js'
import { lawFixtures, regulationFixtures } from './fixtures.js'
import { startFakePublicData, type FakeLovdata, type FakePublicDataFile } from './fake-public-data.js'

export {
  startFakePublicData,
  type FakeLovdata,
  type FakeLovdataBehaviour,
  type FakePublicDataFile,
} from './fake-public-data.js'

/**
 * Builds the files the fake lists by default, the four the real list offers: the two small
 * archives of rules (five laws: Grunnloven with its nynorsk twin, forvaltningsloven,
 * aksjeloven, straffeloven; and TEK17) and two Lovtidend archives, which the rule datasets
 * must pass over (empty here: nothing reads them).
 *
 * @example
 * const files = await defaultPublicDataFiles()
 */
export async function defaultPublicDataFiles(): Promise<Record<string, FakePublicDataFile>> {
  return {
    'gjeldende-lover.tar.bz2': {
      bytes: await buildLovdataArchive(lawFixtures()),
      description: 'Gjeldende lover',
      lastModified: '2026-09-03T02:14:07Z',
    },
    'gjeldende-sentrale-forskrifter.tar.bz2': {
      bytes: await buildLovdataArchive(regulationFixtures()),
      description: 'Gjeldende sentrale forskrifter',
      lastModified: '2026-09-03T02:31:44Z',
    },
    // The archive of past years is rebuilt rarely, this year's nightly.
    'lovtidend-avd1-2001-2025.tar.bz2': {
      bytes: await buildLovdataArchive([]),
      description: 'Norsk Lovtidend avd. I 2001-2025',
      lastModified: '2026-01-05T03:02:51Z',
    },
    'lovtidend-avd1-2026.tar.bz2': {
      bytes: await buildLovdataArchive([]),
      description: 'Norsk Lovtidend avd. I 2026',
      lastModified: '2026-09-03T02:40:12Z',
    },
  }
}

/**
 * Starts a local stand-in for `api.lovdata.no`'s public data ({@link startFakePublicData}) offering
 * `files`, or by default the archives {@link defaultPublicDataFiles} builds from the fixtures.
 *
 * @example
 * const fake = await startFakeLovdata()
 * const lovdata = createLovdataPublicData({ baseUrl: fake.baseUrl })
 */
export async function startFakeLovdata(files?: Record<string, FakePublicDataFile>): Promise<FakeLovdata> {
  return startFakePublicData(files ?? (await defaultPublicDataFiles()))
}
