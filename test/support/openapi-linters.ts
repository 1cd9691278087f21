import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { loadConfig, lintFromString, parseYaml } from '@redocly/openapi-core'
import { Document, Spectral, type RulesetDefinition } from '@stoplight/spectral-core'
// Its default export: a CommonJS module whose names Node's ESM loader cannot see one by one.
import spectralParsers from '@stoplight/spectral-parsers'
import { oas } from '@stoplight/spectral-rulesets'

/** One complaint of a linter, in the words it used. */
export interface LintProblem {
  linter: 'spectral' | 'redocly'
  severity: string
  rule: string
  path: string
  message: string
}

const root = (name: string) => fileURLToPath(new URL(`../../${name}`, import.meta.url))

/**
 * The project's `.spectral.yaml` as a ruleset: `spectral:oas` (bundled, never fetched) and the
 * rules it switches off. Read here rather than through Spectral's bundler, which would pull in
 * a bundler of its own for one `extends`.
 */
async function spectralRuleset(): Promise<RulesetDefinition> {
  const config = parseYaml(await readFile(root('.spectral.yaml'), 'utf8')) as {
    extends?: unknown
    rules?: Record<string, unknown>
  }
  const extendsList = [config.extends].flat()
  if (extendsList.length !== 1 || extendsList[0] !== 'spectral:oas')
    throw new TypeError(`.spectral.yaml must extend spectral:oas alone (got ${JSON.stringify(config.extends)})`)
  return { extends: [oas], ...(config.rules ? { rules: config.rules } : {}) } as RulesetDefinition
}

const spectralSeverity = ['error', 'warning', 'info', 'hint']

/** Spectral's `oas` rules, as `.spectral.yaml` sets them, over an OpenAPI document. */
export async function spectralProblems(doc: unknown): Promise<LintProblem[]> {
  const spectral = new Spectral()
  spectral.setRuleset(await spectralRuleset())
  const results = await spectral.run(new Document(JSON.stringify(doc, null, 2), spectralParsers.Json, 'openapi.json'))
  return results.map((r) => ({
    linter: 'spectral',
    severity: spectralSeverity[r.severity] ?? String(r.severity),
    rule: String(r.code),
    path: r.path.join('.'),
    message: r.message,
  }))
}

/** Redocly's rules, as `redocly.yaml` sets them (`recommended`), over an OpenAPI document. */
export async function redoclyProblems(doc: unknown): Promise<LintProblem[]> {
  const config = await loadConfig({ configPath: root('redocly.yaml') })
  const problems = await lintFromString({
    source: JSON.stringify(doc, null, 2),
    absoluteRef: root('openapi.json'),
    config,
  })
  return problems.map((p) => ({
    linter: 'redocly',
    severity: p.severity,
    rule: p.ruleId,
    path: p.location.map((l) => l.pointer ?? '').join(' '),
    message: p.message,
  }))
}
