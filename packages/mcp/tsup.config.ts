import { packageBuild } from '../../tsup.package.js'

// The testing entry imports '@allmenning/core/conformance', kept external as the core itself is.
export default packageBuild()
