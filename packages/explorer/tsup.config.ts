import { packageBuild } from '../../tsup.package.js'

// shims: the CommonJS build needs import.meta.url to find swagger-ui-dist's files.
export default { ...packageBuild(), shims: true }
