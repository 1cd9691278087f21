import { packageBuild } from '../../tsup.package.js'

// One entry per concern, so a host that serves no metrics never loads prom-client.
export default packageBuild({ index: 'src/index.ts', 'prometheus/index': 'src/prometheus/index.ts', 'opentelemetry/index': 'src/opentelemetry/index.ts' })
