import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext } from 'playwright-core'

/** Debian's Chromium, which .ci/run installs (apt-get install chromium). */
export const chromiumPath = '/usr/bin/chromium'

/** Whether Debian's Chromium is on this machine and starts. */
export function chromiumAvailable(): boolean {
  return (
    existsSync(chromiumPath) &&
    spawnSync(chromiumPath, ['--version'], { stdio: 'ignore', timeout: 20_000 }).status === 0
  )
}

// Headless, and quiet: no GPU, no QUIC, no first-run pages, and none of the background calls
// (updates, sync, field trials) a browser makes to Google, so the test stays offline.
const flags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export interface Chromium {
  context: BrowserContext
  close(): Promise<void>
}

/** Starts Chromium through playwright-core with a fresh profile, removed again on close. */
export async function startChromium(): Promise<Chromium> {
  const profile = mkdtempSync(join(tmpdir(), 'allmenning-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: flags,
    viewport: { width: 1280, height: 1000 },
  })
  return {
    context,
    close: async () => {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}
