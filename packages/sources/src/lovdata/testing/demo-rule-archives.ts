import { readFileSync } from 'node:fs'
import type { ArchiveFile } from '../archive-reader.js'
import { LOVDATA_RULE_FILES } from '../lovdata-upstream.js'
import { amendmentLaw, lawFixtures, radonRegulations, regulationFixtures } from './fixtures.js'

/** One of Lovdata's archives of rules as the demo offers it. */
export interface DemoRuleArchive {
  /** Its name in Lovdata's list, `gjeldende-lover.tar.bz2`. */
  file: string
  description: string
  /** The documents it holds: the test fixtures, so a search finds in the demo what the tests find. */
  documents(): ArchiveFile[]
}

/**
 * The demo's two archives of rules: the laws of the tests (Grunnloven in both written forms,
 * forvaltningsloven, aksjeloven, straffeloven and a law amending two of them) and the
 * regulations (TEK17 and two on radon). Their bytes are kept in `fixtures/demo/` (a test
 * checks they are what `buildLovdataArchive` makes of {@link DemoRuleArchive.documents}), so
 * the demo serves and loads them without a bzip2 compressor, which only tests have.
 *
 * @example
 * demoRuleArchives.map((archive) => archive.file) // ['gjeldende-lover.tar.bz2', 'gjeldende-sentrale-forskrifter.tar.bz2']
 */
export const demoRuleArchives: DemoRuleArchive[] = [
  {
    file: LOVDATA_RULE_FILES.laws,
    description: 'Gjeldende lover',
    documents: () => [...lawFixtures(), amendmentLaw()],
  },
  {
    file: LOVDATA_RULE_FILES.regulations,
    description: 'Gjeldende sentrale forskrifter',
    documents: () => [...regulationFixtures(), ...radonRegulations()],
  },
]

/** Where the bytes of the demo's archives are kept. */
export const demoRuleArchiveDir = new URL('./fixtures/demo/', import.meta.url)

/**
 * The bytes of one of the demo's archives, `.tar.bz2` as Lovdata publishes it.
 *
 * @example
 * demoRuleArchive('gjeldende-lover.tar.bz2').subarray(0, 3).toString() // 'BZh'
 */
export function demoRuleArchive(file: string): Buffer {
  return readFileSync(new URL(file, demoRuleArchiveDir))
}
