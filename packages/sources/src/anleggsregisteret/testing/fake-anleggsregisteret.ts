import { readFileSync } from 'node:fs'
import {
  fakeReply,
  startFakeUpstream,
  type FakeReply,
  type FakeRoute,
  type FakeUpstream,
} from '@allmenning/core/testing'

/** The paths of the back office the fake serves, below `/api`. */
export const anleggsregisteretPaths = { facilities: '/facilities' } as const

/**
 * The whole register of the fake (our own data) as one Spring Data page: 26 facilities in Oslo,
 * Bærum, Bergen, the two Herøy and Deatnu-Tana, with the field names OpenStreetMap Norway's import
 * and a 2026 importer read (`facilityId`, `name`, `status`, `latitude`, `longitude`,
 * `municipalityName`, `countyName`, `ownerName`, `operatorName`, `categoryDescription`,
 * `typeDescription`, plus `buildingYear`, `ownerOrgno`, `totalGrants` …) and the register's
 * quirks: names in capitals and with "kommune", an Oslo facility and a Bergen one in the wrong
 * UTM zone (longitude 6° off), the two Oslo stand-in positions, a missing position, (0, 0), a
 * position 400 km off, every status, and a row without a facility id.
 */
export const registerFixture = readFileSync(new URL('./fixtures/facilities-all.json', import.meta.url), 'utf8')

type Row = Record<string, unknown>

/** The register's facilities, as the fake serves them. */
export const registerRows: Row[] = (JSON.parse(registerFixture) as { content: Row[] }).content

/**
 * A Spring Data page of `rows`, as the back office answers `?page=&size=`: a page past the
 * last has no content and says it is the last (Spring's behaviour; the register's not seen).
 *
 * @example
 * springPage(registerRows, 0, 500).last // true
 */
export function springPage(rows: Row[], page: number, size: number): Row {
  const content = rows.slice(page * size, (page + 1) * size)
  const totalPages = Math.ceil(rows.length / size)
  const sort = { empty: true, sorted: false, unsorted: true }
  return {
    content,
    pageable: { sort, offset: page * size, pageNumber: page, pageSize: size, paged: true, unpaged: false },
    last: page >= totalPages - 1,
    totalPages,
    totalElements: rows.length,
    size,
    number: page,
    sort,
    first: page === 0,
    numberOfElements: content.length,
    empty: content.length === 0,
  }
}

/** Spring's answer to a parameter it cannot read (the register's own body not seen). */
const badRequest = (parameter: string): FakeReply =>
  fakeReply.json(
    {
      timestamp: '2026-05-07T08:00:00.000+00:00',
      status: 400,
      error: 'Bad Request',
      path: `/api/facilities?${parameter}`,
    },
    { status: 400, contentType: 'application/json' },
  )

/**
 * The route of `/facilities` as the fake plays it, over `rows` (the fixture by default): Spring
 * paging with `page` (0 first) and `size` (20 when left out, Spring's default), compact JSON,
 * `application/json` without a charset as Spring Boot writes it (the register's header is not seen).
 *
 * @example
 * fake.route(anleggsregisteretPaths.facilities, facilitiesRoute(manyFacilities(2600)))
 */
export function facilitiesRoute(rows: Row[] = registerRows): FakeRoute {
  return (url) => {
    const page = Number(url.searchParams.get('page') ?? '0')
    const size = Number(url.searchParams.get('size') ?? '20')
    if (!Number.isInteger(page) || page < 0) return badRequest('page')
    if (!Number.isInteger(size) || size < 1) return badRequest('size')
    return fakeReply.json(springPage(rows, page, size), { contentType: 'application/json' })
  }
}

/**
 * A local Anleggsregisteret back office under `/api`.
 *
 * @example
 * const fake = await startFakeAnleggsregisteret()
 * createGateway({ sources: [anleggsregisteret()], upstreams: { anleggsregisteret: { baseUrl: fake.baseUrl } } })
 */
export async function startFakeAnleggsregisteret(rows: Row[] = registerRows): Promise<FakeUpstream> {
  return startFakeUpstream({ [anleggsregisteretPaths.facilities]: facilitiesRoute(rows) }, '/api')
}

/**
 * `count` facilities spread over Oslo (our own, made up), for tests of a register of many pages.
 *
 * @example
 * const fake = await startFakeAnleggsregisteret(manyFacilities(2600)) // six pages of 500
 */
export function manyFacilities(count: number): Row[] {
  return Array.from({ length: count }, (_, i) => ({
    ...registerRows[0],
    facilityId: 100_000 + i,
    name: `Anlegg ${i}`,
    latitude: 59.85 + (i % 100) / 1000,
    longitude: 10.65 + (i % 97) / 500,
  }))
}
