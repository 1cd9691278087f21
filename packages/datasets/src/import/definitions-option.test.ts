import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { definitionsOption } from './dataset-definitions-module.js'
import { importInWorker } from './import-in-worker.js'

const testDatasets = { module: fileURLToPath(new URL('../testing/test-datasets.ts', import.meta.url)) }

describe('the module of dataset definitions an option names', () => {
  it('is read by its name, definitions, or by its earlier one, catalog, and the same under both', () => {
    expect(definitionsOption({ definitions: testDatasets }, 'syncDataset')).toBe(testDatasets)
    expect(definitionsOption({ catalog: testDatasets }, 'syncDataset')).toBe(testDatasets)
    expect(definitionsOption({ definitions: testDatasets, catalog: { ...testDatasets } }, 'syncDataset')).toBe(
      testDatasets,
    )
  })

  it('is refused, naming the function, when missing or when the two names name different modules', () => {
    expect(() => definitionsOption({}, 'deriveDataset')).toThrow(
      'deriveDataset: definitions must name the module that defines the dataset',
    )
    expect(() =>
      definitionsOption({ definitions: testDatasets, catalog: { module: '@allmenning/sources' } }, 'importInWorker'),
    ).toThrow('importInWorker: definitions and catalog (its earlier name) name different modules; give one')
  })

  it('reaches the import worker under the earlier name too', async () => {
    await expect(
      importInWorker({ path: ':memory:', catalog: testDatasets, datasetId: 'nope', inputs: [], publishedAt: null }),
    ).rejects.toThrow(/defines no dataset "nope"/)
  })
})
