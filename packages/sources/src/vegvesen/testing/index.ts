// What @allmenning/sources/vegvesen/testing offers a test: the trafikkdata GraphQL API played
// locally, with fixtures of its format. Only through this entry do fakes reach users.
export * from './fake-trafikkdata.js'
