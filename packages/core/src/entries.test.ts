import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// The core's entries, one per audience. Every name, types included, lives in exactly one.
const entries = {
  '@allmenning/core': 'index.ts',
  '@allmenning/core/source': 'source.ts',
  '@allmenning/core/adapter': 'adapter.ts',
  '@allmenning/core/extension': 'extension.ts',
  '@allmenning/core/testing': 'testing/index.ts',
  '@allmenning/core/conformance': 'testing/conformance/index.ts',
} as const
type Entry = keyof typeof entries

/**
 * What a host app needs and nothing else: building and serving a gateway, the gateway's
 * request, response and error types (shared by every audience, so they live here), the cache
 * store, upstream overrides, and the shapes of an answer. A name added to the root is a
 * decision about who it is for: add it here only if a host app needs it; otherwise it belongs
 * in /source, /adapter or /extension.
 */
const hostNames = [
  'createGateway',
  'defaultUserAgent',
  'GatewayOptions',
  'ErrorKind',
  'Gateway',
  'GatewayRequest',
  'GatewayResponse',
  // A response's body bytes, held for its hits (a hook that builds answers meets the field).
  'EncodedBody',
  // The host's hook on every answer, and what the gateway's doors other than routes are told.
  'ResponseHook',
  'HostRequest',
  // What createGateway returns, and what its invoke gives: a host calls operations in process.
  'LocalGateway',
  'OperationEnvelope',
  'GatewayError',
  'ErrorCode',
  'ProblemDetail',
  'createMemoryCacheStore',
  'MemoryCacheStore',
  'MemoryCacheStoreOptions',
  'upstreamOverridesFromEnvironment',
  'upstreamEnvironmentVariable',
  'UpstreamOverride',
  'overrideUpstreams',
  'Feedback',
  'Entity',
  'Pagination',
  'RateLimitOptions',
  'RateLimitQuota',
  'SharedRedisClient',
  'RedisNotConnectedError',
  'SharedFlightOptions',
  'gatewayOptionsFromEnv',
  'EnvironmentVariableError',
  'OptionsFromEnv',
  'RedisPackage',
  'TrustProxy',
  'serverSettingsFromEnv',
  'ServerSettings',
  'connectSharedRedis',
  'ConnectableRedisClient',
  'SharedRedisClientSetup',
]

/** Utilities of the other audiences that would make the root noisy again if they came back to it. */
const notForHosts: Record<
  Exclude<Entry, '@allmenning/core' | '@allmenning/core/testing' | '@allmenning/core/conformance'>,
  string[]
> = {
  '@allmenning/core/source': [
    'defineSource',
    'defineOperation',
    'defineUpstream',
    'defineDataset',
    'rankByName',
    'createTimedMemo',
    'listSizeCheck',
    'foldNorwegian',
    'checkUpstreamShape',
    'UpstreamClient',
    'UpstreamError',
  ],
  '@allmenning/core/adapter': [
    'normalizeMountPath',
    'stripMountPath',
    'hostErrorResponse',
    'notFoundResponse',
    'hostErrorAnswer',
    'notFoundAnswer',
    'HostDoors',
    'readRequestBody',
    'bodyText',
    'checkParsedBodySize',
    'maxRequestBodyBytes',
    'jsonContentType',
    'answerServerRefusals',
    'closeGracefully',
  ],
  '@allmenning/core/extension': [
    'GatewayExtension',
    'ExtensionHost',
    'Explorer',
    'DatasetStore',
    'Links',
    'JsonSchema',
    'GatewayObserver',
    'ObservedRequest',
  ],
}

/** Every name an entry exports, types and interfaces included, as the compiler sees them. */
function exportedNames(): Record<Entry, string[]> {
  const src = (file: string) => fileURLToPath(new URL(`./${file}`, import.meta.url))
  const program = ts.createProgram(Object.values(entries).map(src), {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  })
  const checker = program.getTypeChecker()
  const names = {} as Record<Entry, string[]>
  for (const [entry, file] of Object.entries(entries) as [Entry, string][]) {
    const sourceFile = program.getSourceFile(src(file))
    const module = sourceFile && checker.getSymbolAtLocation(sourceFile)
    if (!module) throw new Error(`${entry}: ${file} is not a module`)
    names[entry] = checker.getExportsOfModule(module).map((symbol) => symbol.name)
  }
  return names
}

describe("the core's entries by audience", () => {
  const names = exportedNames()

  it('export each name from exactly one entry', () => {
    const homes = new Map<string, Entry[]>()
    for (const [entry, list] of Object.entries(names) as [Entry, string[]][]) {
      expect(list.length, entry).toBeGreaterThan(0)
      for (const name of list) homes.set(name, [...(homes.get(name) ?? []), entry])
    }
    const twice = [...homes]
      .filter(([, where]) => where.length > 1)
      .map(([name, where]) => `${name}: ${where.join(', ')}`)
    expect(twice).toEqual([])
  })

  it.each(Object.entries(entries))('open %s with a comment naming the entry and who it is for', (entry, file) => {
    const text = readFileSync(new URL(`./${file}`, import.meta.url), 'utf8')
    expect(text.startsWith(`/**\n * \`${entry}\`: for `)).toBe(true)
  })

  it('keep the root to what a host app needs', () => {
    expect([...names['@allmenning/core']].sort()).toEqual([...hostNames].sort())
  })

  it("keeps the suites adapters and dataset stores must pass in /conformance, apart from source authors' /testing", () => {
    for (const name of [
      'runAdapterConformance',
      'runDatasetStoreContract',
      'conformanceNames',
      'sendRequest',
      'ConformanceRunner',
    ]) {
      expect(names['@allmenning/core/conformance'], name).toContain(name)
      expect(names['@allmenning/core/testing'], name).not.toContain(name)
    }
    for (const name of [
      'startFakeUpstream',
      'checkSource',
      'createTestGateway',
      'demoUpstreams',
      'createMemoryDatasetStore',
    ]) {
      expect(names['@allmenning/core/testing'], name).toContain(name)
    }
  })

  it.each(Object.entries(notForHosts))(
    'leave the utilities of %s off the root, in their own entry',
    (entry, utilities) => {
      for (const name of utilities) {
        expect(names['@allmenning/core'], name).not.toContain(name)
        expect(names[entry as Entry], name).toContain(name)
      }
    },
  )
})
