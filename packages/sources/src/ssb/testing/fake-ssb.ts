import { readFileSync, readdirSync } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import { fakeReply, startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'

const PREFIX = '/api/pxwebapi/v2'
const fixtureDir = new URL('./fixtures/', import.meta.url)
const readJson = (name: string): unknown => JSON.parse(readFileSync(new URL(name, fixtureDir), 'utf8'))

/** A table's JSON-stat2 metadata as SSB sends it (`/tables/{id}/metadata?outputFormat=json-stat2`). */
export type SsbMetadata = {
  label: string
  id: string[]
  size: number[]
  dimension: Record<
    string,
    {
      label: string
      category: { index: Record<string, number>; label: Record<string, string> }
      extension: { elimination: boolean }
    }
  >
} & Record<string, unknown>

/** The data a fake PxWebApi serves. */
export interface SsbData {
  /** The hits `/tables` searches, in "relevance" order. */
  tables: ({ id: string; label: string; discontinued: boolean | null } & Record<string, unknown>)[]
  /** Metadata by table id. */
  metadata: Record<string, SsbMetadata>
}

/**
 * Our own two tables in SSB's formats: 91234 (population and births by region and year;
 * Region may be eliminated, one cell missing with status ".."), 93456 (new enterprises by
 * industry, sex and quarter), and 26 search hits, one discontinued.
 *
 * @example
 * const { metadata } = ssbFixtures()
 */
export function ssbFixtures(): SsbData {
  const metadata: Record<string, SsbMetadata> = {}
  for (const file of readdirSync(fixtureDir)) {
    const id = /^metadata-(\d{5})\.json$/.exec(file)?.[1]
    if (id) metadata[id] = readJson(file) as SsbMetadata
  }
  return { tables: readJson('tables.json') as SsbData['tables'], metadata }
}

/** A deterministic figure for one cell, so tests can know it: the position plus 1000 × the codes' digit sum. */
export function fakeCellValue(codes: string[], position: number): number {
  const digits = codes.join('').replace(/\D/g, '')
  return 1000 * [...digits].reduce((sum, digit) => sum + Number(digit), 0) + position
}

// PxWebApi answers errors as RFC 9457 problem details; the exact body is not seen in a capture.
function problem(status: number, detail: string): FakeReply {
  return fakeReply.json(
    { type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1', title: detail, status },
    { status, contentType: 'application/problem+json; charset=utf-8' },
  )
}

const json = (body: unknown): FakeReply => fakeReply.json(body, { contentType: 'application/json; charset=UTF-8' })

function splitTopLevel(text: string): string[] {
  const parts: string[] = []
  let depth = 0
  let current = ''
  for (const char of text) {
    if (char === '(' || char === '[') depth++
    if (char === ')' || char === ']') depth--
    if (char === ',' && depth === 0) {
      parts.push(current)
      current = ''
    } else current += char
  }
  parts.push(current)
  return parts.filter((part) => part !== '')
}

/** The codes one PxWebApi expression selects, or undefined when it names a value the list lacks. */
function select(expression: string, codes: string[]): string[] | undefined {
  const call = /^(top|bottom|from|to|range)\((.*)\)$/i.exec(expression)
  const at = (code: string) => codes.indexOf(code)
  if (call) {
    const args = call[2]!.split(',')
    const n = Number(args[0])
    const skip = Number(args[1] ?? 0)
    switch (call[1]!.toLowerCase()) {
      case 'top':
        return codes.slice(Math.max(0, codes.length - skip - n), codes.length - skip)
      case 'bottom':
        return codes.slice(skip, skip + n)
      case 'from':
        return at(args[0]!) < 0 ? undefined : codes.slice(at(args[0]!))
      case 'to':
        return at(args[0]!) < 0 ? undefined : codes.slice(0, at(args[0]!) + 1)
      default: {
        const [a, b] = [at(args[0]!), at(args[1]!)]
        return a < 0 || b < 0 ? undefined : codes.slice(Math.min(a, b), Math.max(a, b) + 1)
      }
    }
  }
  if (/[*?]/.test(expression)) {
    const pattern = new RegExp(
      `^${expression
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.')}$`,
    )
    return codes.filter((code) => pattern.test(code))
  }
  return at(expression) < 0 ? undefined : [expression]
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = ''
  for await (const chunk of req) text += String(chunk)
  return text
}

/** A running fake PxWebApi: a {@link FakeUpstream} whose `baseUrl` is like `https://data.ssb.no/api/pxwebapi/v2`. */
export type FakeSsb = FakeUpstream

/**
 * Starts a fake SSB PxWebApi v2 on 127.0.0.1 (upstreams-3.md §5):
 * - `GET /tables?query=&lang=&pageNumber=&pageSize=&includeDiscontinued=`: hits whose label
 *   has every word of the query (a `field:` prefix and `AND` ignored), paged from page 1,
 *   `{language, tables, page: {pageNumber, pageSize, totalElements, totalPages, links}, links}`;
 *   a query with unbalanced parentheses or quotes is a 400, as Lucene's parser refuses it.
 * - `GET /tables/{id}/metadata?outputFormat=json-stat2`: the fixture's JSON-stat2 dataset
 *   without `value`; an unknown table is a 404.
 * - `GET /tables/{id}/data?valueCodes[Var]=…` and `POST` the same path with
 *   `{selection: [{variableCode, valueCodes}]}`: a JSON-stat2 dataset of the selected cells,
 *   eliminated variables left out (SSB sums over them), values from {@link fakeCellValue};
 *   the cell of Region 1103 in 2020 is missing (`null`, status `..`). A variable that cannot
 *   be eliminated and is not selected, or a value the table lacks, is a 400.
 *
 * @example
 * const fake = await startFakeSsb()
 * createGateway({ sources: [ssb()], upstreams: { ssb: { baseUrl: fake.baseUrl } } })
 * fake.failWith(fakeReply.status(503), { times: 1 })
 */
export async function startFakeSsb(data: SsbData = ssbFixtures()): Promise<FakeSsb> {
  let baseUrl = ''
  const data_ = async (url: URL, req: IncomingMessage, id: string | undefined): Promise<FakeReply> => {
    const table = id === undefined ? undefined : data.metadata[id]
    if (!table) return problem(404, `Table ${id} not found`)
    const chosen = new Map<string, string[]>()
    if (req.method === 'POST') {
      let body: { selection?: { variableCode: string; valueCodes: string[] }[] }
      try {
        body = JSON.parse(await readBody(req)) as typeof body
      } catch {
        return problem(400, 'Invalid JSON')
      }
      for (const item of body.selection ?? []) chosen.set(item.variableCode, item.valueCodes)
    } else {
      for (const [key, value] of url.searchParams) {
        const name = /^valueCodes\[(.+)\]$/i.exec(key)?.[1]
        if (name) chosen.set(name, splitTopLevel(value))
      }
    }
    const dims: { code: string; codes: string[] }[] = []
    for (const code of table.id) {
      const dimension = table.dimension[code]!
      const all = Object.entries(dimension.category.index)
        .sort((a, b) => a[1] - b[1])
        .map(([c]) => c)
      const expressions = chosen.get(code)
      if (!expressions) {
        if (dimension.extension.elimination) continue
        return problem(400, `Variable ${code} must be selected`)
      }
      const picked = new Set<string>()
      for (const expression of expressions) {
        const codes = select(expression, all)
        if (!codes) return problem(400, `Value ${expression} does not exist in variable ${code}`)
        for (const c of codes) picked.add(c)
      }
      dims.push({ code, codes: all.filter((c) => picked.has(c)) })
    }
    const value: (number | null)[] = []
    const status: Record<string, string> = {}
    const at = dims.map(() => 0)
    const total = dims.reduce((product, dim) => product * dim.codes.length, 1)
    for (let position = 0; position < total; position++) {
      const codes = dims.map((dim, i) => dim.codes[at[i]!]!)
      const cell = Object.fromEntries(dims.map((dim, i) => [dim.code, codes[i]]))
      if (cell['Region'] === '1103' && cell['Tid'] === '2020') {
        value.push(null)
        status[String(position)] = '..'
      } else value.push(fakeCellValue(codes, position))
      for (let i = at.length - 1; i >= 0; i--) {
        at[i]!++
        if (at[i]! < dims[i]!.codes.length) break
        at[i] = 0
      }
    }
    const dimension = Object.fromEntries(
      dims.map((dim) => {
        const source = table.dimension[dim.code]!
        const category = source.category as { label: Record<string, string>; unit?: Record<string, unknown> }
        return [
          dim.code,
          {
            ...source,
            category: {
              index: Object.fromEntries(dim.codes.map((c, i) => [c, i])),
              label: Object.fromEntries(dim.codes.map((c) => [c, category.label[c]])),
              ...(category.unit ? { unit: Object.fromEntries(dim.codes.map((c) => [c, category.unit![c]])) } : {}),
            },
          },
        ]
      }),
    )
    const role = table['role'] as Record<string, string[]>
    return json({
      ...table,
      href: `${baseUrl}/tables/${id}/data?lang=no&outputFormat=json-stat2`,
      role: Object.fromEntries(Object.entries(role).map(([key, codes]) => [key, codes.filter((c) => chosen.has(c))])),
      id: dims.map((dim) => dim.code),
      size: dims.map((dim) => dim.codes.length),
      dimension,
      value,
      ...(Object.keys(status).length > 0 ? { status } : {}),
    })
  }
  const fake = await startFakeUpstream(
    {
      '/tables': (url) => {
        const params = url.searchParams
        const query = params.get('query') ?? ''
        if (
          (query.match(/\(/g) ?? []).length !== (query.match(/\)/g) ?? []).length ||
          (query.match(/"/g) ?? []).length % 2 === 1
        ) {
          return problem(400, `Cannot parse '${query}'`)
        }
        const words = query
          .toLowerCase()
          .replace(/\b\w+:/g, ' ')
          .split(/[^\p{L}\p{N}*]+/u)
          .filter((word) => word !== '' && word !== 'and')
          .map((word) => word.replace(/\*$/, ''))
        const includeDiscontinued = params.get('includeDiscontinued') === 'true'
        const hits = data.tables.filter(
          (table) =>
            (includeDiscontinued || !table.discontinued) &&
            words.every((word) => table.label.toLowerCase().includes(word)),
        )
        const pageNumber = Number(params.get('pageNumber') ?? '1')
        const pageSize = Number(params.get('pageSize') ?? '20')
        if (!Number.isInteger(pageNumber) || pageNumber < 1 || !Number.isInteger(pageSize) || pageSize < 1)
          return problem(400, 'Invalid paging')
        const totalPages = Math.ceil(hits.length / pageSize)
        const link = (n: number) => ({
          rel: 'next',
          hreflang: 'no',
          href: `${baseUrl}/tables?query=${encodeURIComponent(query)}&pageNumber=${n}&pageSize=${pageSize}`,
        })
        return json({
          language: params.get('lang') ?? 'no',
          tables: hits.slice((pageNumber - 1) * pageSize, pageNumber * pageSize),
          page: {
            pageNumber,
            pageSize,
            totalElements: hits.length,
            totalPages,
            links: pageNumber < totalPages ? [link(pageNumber + 1)] : [],
          },
          links: [{ rel: 'self', hreflang: 'no', href: `${baseUrl}${url.pathname.slice(PREFIX.length)}${url.search}` }],
        })
      },
      '/tables/{id}/metadata': (_url, _req, { id }) => {
        const table = id === undefined ? undefined : data.metadata[id]
        return table ? json(table) : problem(404, `Table ${id} not found`)
      },
      '/tables/{id}/data': (url, req, { id }) => data_(url, req, id),
    },
    { prefix: PREFIX },
  )
  baseUrl = fake.baseUrl
  return fake
}
