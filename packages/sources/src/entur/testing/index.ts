// What @allmenning/sources/entur/testing offers a test: Entur's geocoder, JourneyPlanner, vehicle
// positions and Mobility v2 played locally, with fixtures of their format, and all four at once
// for the offline demo. Only through this entry do fakes reach users.
export * from './fake-entur.js'
export * from './fake-entur-vehicles.js'
export * from './fake-entur-mobility.js'
export { graphqlRoute, missingVariable, type GraphqlQuestion } from './graphql-fake.js'
export { startDemoUpstreams } from './demo-upstreams.js'
