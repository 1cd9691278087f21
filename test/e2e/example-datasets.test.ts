import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importDataset } from '@allmenning/datasets'
import { aksjonaerregisteret } from '@allmenning/sources/firmafakta'
import { createApp } from '../../examples/express-server/src/app.js'
import { createApp as createKoaApp } from '../../examples/koa-server/src/app.js'
import { aksjonaerregisteret2024 } from '../../packages/sources/src/firmafakta/testing/aksjonaerregisteret-fixtures.js'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

let dir: string
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'allmenning-example-data-'))
  writeFileSync(join(dir, 'aksjer.csv'), aksjonaerregisteret2024())
  await importDataset({
    path: join(dir, 'data', 'allmenning.sqlite'),
    dataset: aksjonaerregisteret,
    inputs: [{ file: 'aksjonaerregisteret.csv', path: join(dir, 'aksjer.csv'), url: null }],
    publishedAt: '2024-12-31',
  })
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function get(listener: Parameters<typeof createServer>[1], path: string) {
  const server: Server = createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`)
    return {
      status: res.status,
      json: (await res.json()) as { data?: { shareholders: unknown[] }; error?: { code: string; message: string } },
    }
  } finally {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const shareholders = '/api/v1/kilder/firmafakta/aksjeeiere_for_selskap?org_nr=976030788'

describe('the example servers read datasets from ALLMENNING_DATA_DIR', () => {
  it('answer from the store the command line filled (Express and Koa)', async () => {
    const env = { ALLMENNING_DATA_DIR: join(dir, 'data') }
    const express = await get(createApp(env), shareholders)
    expect(express.status).toBe(200)
    expect(express.json.data?.shareholders).toHaveLength(6)
    const koa = await get(createKoaApp(env).callback(), shareholders)
    expect(koa.status).toBe(200)
    expect(koa.json.data?.shareholders).toHaveLength(6)
  })

  it('answer 502 dataset_not_loaded, naming the command, where nothing was loaded', async () => {
    const res = await get(createApp({ ALLMENNING_DATA_DIR: join(dir, 'empty') }), shareholders)
    expect(res.status).toBe(502)
    expect(res.json.error?.code).toBe('dataset_not_loaded')
    expect(res.json.error?.message).toContain('npx allmenning datasets import aksjonaerregisteret <file>')
  })

  it('list in the source descriptor the datasets a source answers from, with the command that loads each', async () => {
    const res = await get(createApp({ ALLMENNING_DATA_DIR: join(dir, 'empty') }), '/api/v1/kilder/firmafakta')
    const datasets = (res.json as unknown as { datasets: Array<Record<string, string>> }).datasets
    expect(datasets.map((d) => d.id)).toEqual(
      expect.arrayContaining(['aksjonaerregisteret', 'innovasjon_norge_tildelinger']),
    )
    expect(datasets.find((d) => d.id === 'aksjonaerregisteret')).toMatchObject({
      publisher: expect.stringMatching(/Skatteetaten/),
      origin: 'ordered from the publisher; imported from a local file',
      load_command: 'npx allmenning datasets import aksjonaerregisteret <file>',
    })
    const statnett = await get(createApp({ ALLMENNING_DATA_DIR: join(dir, 'empty') }), '/api/v1/kilder/statnett')
    expect(statnett.json).not.toHaveProperty('datasets')
  })
})
