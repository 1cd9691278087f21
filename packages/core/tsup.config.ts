import { packageBuild } from '../../tsup.package.js'

const build = packageBuild()

// The testing kit imports the core by name (`@allmenning/core`, `@allmenning/core/source`):
// kept external, it shares the user's one copy of the core (its GatewayError, its
// createGateway) instead of bundling a second. The audience entries share one copy among
// themselves through split chunks, in CommonJS too, so that a GatewayError thrown by a source
// written against `/source` is the class the gateway of the root entry knows.
export default { ...build, splitting: true, external: ['@allmenning/core', /^@allmenning\/core\//] }
