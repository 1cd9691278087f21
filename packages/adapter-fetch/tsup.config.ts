import { packageBuild } from '../../tsup.package.js'

export default packageBuild()
