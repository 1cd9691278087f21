import { mkdirSync, writeFileSync } from 'node:fs'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { readLovdataArchive } from '../archive-reader.js'
import { buildLovdataArchive } from './archive-builder.js'
import { demoRuleArchive, demoRuleArchiveDir, demoRuleArchives } from './demo-rule-archives.js'

// The kept archives are rebuilt from the fixtures with ALLMENNING_WRITE_DEMO_FIXTURES=1 when those change.
const rewrite = process.env.ALLMENNING_WRITE_DEMO_FIXTURES === '1'

describe('the demo archives of rules', () => {
  for (const archive of demoRuleArchives) {
    it(`${archive.file} is what the fixtures build, byte for byte`, async () => {
      const built = await buildLovdataArchive(archive.documents())
      if (rewrite) {
        mkdirSync(demoRuleArchiveDir, { recursive: true })
        writeFileSync(new URL(archive.file, demoRuleArchiveDir), built)
      }
      expect(demoRuleArchive(archive.file).equals(built)).toBe(true)
      const ids: string[] = []
      for await (const document of readLovdataArchive(Readable.from([demoRuleArchive(archive.file)])))
        ids.push(document.documentId)
      expect(ids).toHaveLength(archive.documents().length)
    })
  }
})
