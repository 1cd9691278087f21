// The testing kit of @allmenning/datasets: a store loaded from files in a test, and a stand-in
// for a publisher's download server. It imports '@allmenning/datasets' by name, so it shares
// the user's one copy of the store.
export { createLoadedDatasets, type LoadedDatasets } from './loaded-datasets.js'
export { startFakePublisher, type FakePublisher } from './fake-publisher.js'
export { loadDemoDatasets, type DemoDatasets } from './demo-datasets.js'
