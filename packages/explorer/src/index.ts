export { swaggerUiExplorer, type SwaggerUiExplorerOptions } from './swagger-ui-explorer.js'
