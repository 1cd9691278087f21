// What @allmenning/sources/entur/testing offers a test: Entur's geocoder and JourneyPlanner
// played locally, with fixtures of their format. Only through this entry do fakes reach users.
export * from './fake-entur.js'
