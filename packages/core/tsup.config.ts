import { packageBuild } from '../../tsup.package.js'

// The testing kit imports '@allmenning/core' by name: kept external, it shares the user's one
// copy of the core (its GatewayError, its createGateway) instead of bundling a second.
export default { ...packageBuild({ index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' }), external: ['@allmenning/core'] }
