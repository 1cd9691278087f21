import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { swaggerUiExplorer } from './swagger-ui-explorer.js'

// The module's reads, counted: the explorer reads its files only when asked for them.
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>()
  return { ...fs, readFileSync: vi.fn(fs.readFileSync) }
})

const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
const distText = (name: string) => readFileSync(join(dist, name), 'utf8')

describe('swaggerUiExplorer', () => {
  const explorer = swaggerUiExplorer()

  it("serves swagger-ui-dist's own bundle and stylesheet, without the source maps it does not serve", () => {
    const version = (JSON.parse(distText('package.json')) as { version: string }).version
    expect(explorer.name).toBe(`Swagger UI ${version}`)
    expect(Object.keys(explorer.assets)).toEqual([
      'swagger-ui.css',
      'swagger-ui-bundle.js',
      'explorer.css',
      'explorer.js',
    ])
    const bundle = explorer.assets['swagger-ui-bundle.js']!
    expect(bundle.contentType).toBe('text/javascript; charset=utf-8')
    expect(distText('swagger-ui-bundle.js').startsWith(bundle.body)).toBe(true)
    expect(bundle.body.length).toBeGreaterThan(1_000_000)
    const css = explorer.assets['swagger-ui.css']!
    expect(css.contentType).toBe('text/css; charset=utf-8')
    expect(distText('swagger-ui.css')).toContain(css.body)
    expect(css.body).not.toContain('sourceMappingURL')
  })

  it('starts Swagger UI from a file, with the document URL from the page, no validator badge and no ?url= from the address bar', () => {
    const start = explorer.assets['explorer.js']!.body
    expect(start).toContain("url: root.getAttribute('data-openapi')")
    expect(start).toContain('validatorUrl: null')
    expect(start).toContain('queryConfigEnabled: false')
    expect(start).toContain('tryItOutEnabled: true')
  })

  it('writes a page with no inline script or style, every value escaped', () => {
    const html = explorer.page({
      title: 'Data & "more" <here>',
      openapi: '/data/api/v1/openapi.json?x="1"',
      asset: (name) => `/data/api/v1/docs?asset=${name}`,
    })
    expect(html).toContain('<title>Data &amp; &quot;more&quot; &lt;here&gt;</title>')
    expect(html).toContain('data-openapi="/data/api/v1/openapi.json?x=&quot;1&quot;"')
    expect(html).toContain('data-doc-expansion="list"')
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>|<style|\son[a-z]+=/i)
    expect([...html.matchAll(/<script src="([^"]+)"><\/script>/g)].map((m) => m[1])).toEqual([
      '/data/api/v1/docs?asset=swagger-ui-bundle.js',
      '/data/api/v1/docs?asset=explorer.js',
    ])
    expect(swaggerUiExplorer({ docExpansion: 'none' }).page({ title: 't', openapi: '/o', asset: (n) => n })).toContain(
      'data-doc-expansion="none"',
    )
  })
})

describe('swaggerUiExplorer reading its files', () => {
  it('reads each file when it is first asked for, and once', () => {
    const read = vi.mocked(readFileSync)
    const bundleReads = () => read.mock.calls.filter(([path]) => String(path).endsWith('swagger-ui-bundle.js')).length
    const before = bundleReads()
    const fresh = swaggerUiExplorer()
    expect(bundleReads()).toBe(before)
    const body = fresh.assets['swagger-ui-bundle.js']!.body
    expect(body.length).toBeGreaterThan(1_000_000)
    expect(fresh.assets['swagger-ui-bundle.js']!.body).toBe(body)
    expect(bundleReads()).toBe(before + 1)
  })
})
