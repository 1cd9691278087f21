/**
 * Names a JSDoc example may use, undeclared, for the reader's own data at that point: the
 * row being written, the body an upstream sent, the database, the catalog the gateway
 * compiled. The check of the examples (`test/docs/code-examples.test.ts`) lets these stay
 * undeclared only where an example uses them as data: called, constructed or used as a type,
 * a name must be declared or imported, so a function or class that is renamed or removed
 * fails the check.
 *
 * Never add here the name of something the workspace exports: an example should get it from
 * where it is (its file's imports, its folder, a package) or from a typed placeholder in this
 * folder, so that renaming it fails the check. A name no example uses any more fails the
 * check too, so the list stays what the examples need.
 */
export const readerDataNames: readonly string[] = [
  'access', 'addresses', 'apiKey', 'aksjonaerregisteret', 'app', 'article', 'baseUrl', 'body', 'brregRoller',
  'bytes', 'catalog', 'cells', 'clientId', 'clientSecret', 'columns', 'context', 'cordis', 'count',
  'counter', 'csv', 'data', 'db', 'deadline', 'deps', 'doc', 'entities', 'entry', 'event',
  'explorer', 'extra', 'extraCompany', 'fake', 'feed', 'files', 'fingerprint', 'flight',
  'flowRow', 'forecast', 'getFlights', 'header', 'hits', 'html', 'input', 'insert', 'key',
  'keyv', 'lat', 'legalForms', 'limit', 'limits', 'lines', 'load', 'lon',
  'malformed', 'names', 'node', 'nodes', 'operation', 'operationKey', 'options', 'orgNr', 'outage',
  'p', 'pagination', 'parameters', 'params', 'parts', 'path', 'ports', 'previous', 'providers', 'produce',
  'provenance', 'publishedAt', 'read', 'reader', 'redis', 'req', 'result', 'role',
  'routes', 'row', 'rows', 'section', 'server', 'serverFor', 'signal', 'skipped', 'source',
  'station', 'statuses', 'store', 'streams', 'table', 'tar', 'toFlow', 'tokens',
  'tools', 'unit', 'units', 'upstream', 'upstreams', 'url', 'userAgent', 'uses', 'values',
  'version', 'widths', 'workerData', 'writer', 'xml',
]
