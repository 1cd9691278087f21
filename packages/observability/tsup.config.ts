import { packageBuild } from '../../tsup.package.js'

// One entry per concern, so a host that serves no metrics never loads prom-client.
export default packageBuild()
