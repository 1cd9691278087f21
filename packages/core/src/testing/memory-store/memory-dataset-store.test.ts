import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runDatasetStoreContract } from '../conformance/dataset-store-contract.js'
import { createMemoryDatasetStore } from './memory-dataset-store.js'

// The in-memory store keeps the contract every DatasetStore keeps, as the SQLite store does
// (packages/datasets/src/store/dataset-store-contract.test.ts runs the same cases on it).
runDatasetStoreContract(
  { describe, it, expect, beforeAll, afterAll },
  () => {
    const store = createMemoryDatasetStore()
    return {
      store,
      load: async (dataset, rows, version) => void (await store.load(dataset, rows, version)),
      close: () => store.clear(),
    }
  },
  { name: 'the in-memory dataset store keeps the DatasetStore contract' },
)
