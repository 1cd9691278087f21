import { exampleBuild } from '../../tsup.package.js'

export default exampleBuild({ main: 'src/main.ts' })
