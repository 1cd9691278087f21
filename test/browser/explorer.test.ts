import { mkdirSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FakeUpstream } from '@allmenning/core/testing'
import { builtInSources } from '@allmenning/sources'
import { createApp } from '../../examples/express-server/src/app.js'
import { startFakeStatnett, statnettPaths } from '@allmenning/sources/statnett/testing'
import { chromiumAvailable, chromiumPath, startChromium, type Chromium } from './chromium.js'

// CI installs Chromium and must run this suite; elsewhere it is skipped when there is none.
const available = chromiumAvailable()
if (!available && process.env.CI) throw new Error(`${chromiumPath} is not installed, and CI must run the browser suite`)
if (!available)
  console.warn(`Skipping the browser suite: no ${chromiumPath} on this machine (apt-get install chromium)`)

/** Screenshots land here for people to look at; the folder is in .gitignore. */
const artifacts = new URL('./artifacts/', import.meta.url)

describe.skipIf(!available)('the API explorer in a real browser', () => {
  let statnett: FakeUpstream
  let server: Server
  let origin: string
  let browser: Chromium

  beforeAll(async () => {
    statnett = await startFakeStatnett()
    // The example server as `npm start` runs it, with Statnett played by a local stand-in.
    server = createApp({ ALLMENNING_UPSTREAM_STATNETT: statnett.baseUrl }).listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    browser = await startChromium()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve))
    await statnett?.close()
  })

  it('opens /api/v1/docs, finds an operation, sends it to the stand-in upstream and shows the answer', async () => {
    const page = await browser.context.newPage()
    // The page's policy must not have to block anything, and nothing may leave the machine.
    // (Browser code as text: this project's TypeScript knows no DOM.)
    await page.addInitScript({
      content:
        "window.violations = []; document.addEventListener('securitypolicyviolation', (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI))",
    })
    const requested: string[] = []
    page.on('request', (request) => void requested.push(request.url()))
    const consoleErrors: string[] = []
    page.on('console', (message) => void (message.type() === 'error' && consoleErrors.push(message.text())))

    const opened = await page.goto(`${origin}/api/v1/docs`)
    expect(opened?.status()).toBe(200)
    expect(opened?.headers()['content-security-policy']).toContain("script-src 'self'")

    // Find the operation among every source's (the filter box narrows the list by tag).
    await page.getByPlaceholder('Filter by tag').fill('statnett')
    await expect.poll(() => page.locator('.opblock-tag-section').count()).toBe(1)
    const operation = page.locator('.opblock').filter({ hasText: '/api/v1/kilder/statnett/get_power_situation' })
    // Open it by its method badge: the path inside is a deep link of its own.
    await operation.locator('.opblock-summary-method').click()
    await operation.locator('select').first().selectOption('NO2')
    const before = statnett.hits(statnettPaths.powerSituation)
    await operation.getByRole('button', { name: 'Execute' }).click()

    const answer = operation.locator('.responses-wrapper .live-responses-table')
    await answer.getByText('"Tight"').first().waitFor({ timeout: 15_000 })
    await expect(operation.locator('.request-url pre').innerText()).resolves.toBe(
      `${origin}/api/v1/kilder/statnett/get_power_situation?area=NO2&limit=25&offset=0`,
    )
    expect(await answer.locator('tbody .response-col_status').first().innerText()).toBe('200')
    expect(statnett.hits(statnettPaths.powerSituation)).toBe(before + 1)

    // The operation as the user left it: its parameters, the request sent, and the answer
    // (down to the end of the live answer; the documented responses below are left out).
    mkdirSync(artifacts, { recursive: true })
    const scrollY = (await page.evaluate('window.scrollY')) as number
    const from = (await operation.boundingBox())!
    const to = (await answer.boundingBox())!
    await page.screenshot({
      path: new URL('explorer.png', artifacts).pathname,
      fullPage: true,
      clip: { x: 0, y: Math.max(0, from.y + scrollY - 8), width: 1280, height: to.y + to.height - from.y + 16 },
    })

    expect(await page.evaluate('window.violations')).toEqual([])
    expect(requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'))).toEqual([])
    expect(consoleErrors).toEqual([])
    await page.close()
  }, 60_000)

  it('lists every built-in source as a section of its own', async () => {
    const page = await browser.context.newPage()
    await page.goto(`${origin}/api/v1/docs`)
    const sections = page.locator('.opblock-tag[data-tag]')
    await sections.first().waitFor({ timeout: 15_000 })
    const shown = await sections.evaluateAll((tags) => tags.map((tag) => tag.getAttribute('data-tag')))
    const sources = builtInSources({}).map((source) => source.id)
    expect(sources).toEqual(expect.arrayContaining(['strompris', 'entur', 'vegvesen', 'ssb', 'nve']))
    expect(shown).toEqual(expect.arrayContaining(sources))
    await page.close()
  }, 60_000)
})
