import { getWarnings } from './get-warnings.js'

/** NVE's operations, in the order of the source's outline: loaded when a request first reads them. */
export const nveOperations = [getWarnings]
