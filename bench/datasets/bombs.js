// Feeds `allmenning datasets import` (the built command line, each in its own process, timed
// and measured by GNU time) files that are small on disk and huge once read: a line of a
// gigabyte in a CORDIS zip, a 50 MB line, a zip bomb, a gzip bomb, a bzip2 bomb and a tar of
// 200,000 members in Lovdata's format. Each must fail with a line naming the limit and the
// file, with the process's peak RSS under the bound printed beside it.
// Not part of `npm test`. Usage: npm run bench:datasets-bombs
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { repeat, writeGzip, writeZip } from '../../packages/datasets/src/testing/bomb-files.ts'
import { bzip2, packTar, tarHeader } from '../../packages/sources/src/lovdata/testing/archive-builder.ts'

const MiB = 1024 * 1024
/** Peak RSS a bomb may take the importing process to: the 1M-row import's own target. */
const boundMiB = 300
const dir = mkdtempSync(join(tmpdir(), 'allmenning-bench-bombs-'))
const cli = fileURLToPath(new URL('../../packages/datasets/dist/allmenning.js', import.meta.url))
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')
const cordisHeader =
  'id;acronym;status;title;startDate;endDate;totalCost;ecMaxContribution;legalBasis;topics;ecSignatureDate;frameworkProgramme;masterCall;subCall;fundingScheme;nature;objective;contentUpdateDate;rcn;grantDoi\n'

async function cordisZip(name, lineBytes) {
  const path = join(dir, name)
  await writeZip(path, [
    {
      name: 'project.csv',
      pieces: () => [Buffer.from(cordisHeader), ...repeat(Buffer.alloc(MiB, 'a'), lineBytes / MiB)],
    },
  ])
  return path
}

const bombs = [
  {
    label: 'CORDIS zip: project.csv a header and 1 GiB without a line break',
    args: async () => {
      const path = await cordisZip('cordis-1g.zip', 1024 * MiB)
      return ['cordis', path, path]
    },
  },
  {
    label: 'CORDIS zip: project.csv a header and a 50 MiB line (under the ratio check)',
    args: async () => {
      const path = await cordisZip('cordis-50m.zip', 50 * MiB)
      return ['cordis', path, path]
    },
  },
  {
    label: 'Aksjonærregisteret: a plain 50 MiB line',
    args: async () => {
      const path = join(dir, 'aksjer-50m.csv')
      writeFileSync(
        path,
        Buffer.concat([
          Buffer.from(
            'Orgnr;Selskap;Aksjeklasse;Navn aksjonær;Fødselsår/orgnr;Postnr/sted;Landkode;Antall aksjer;Antall aksjer selskap\n',
          ),
          Buffer.alloc(50 * MiB, 'a'),
        ]),
      )
      return ['aksjonaerregisteret', path]
    },
  },
  {
    label: 'Brønnøysund roles: gzip of 1 GiB of spaces inside a JSON array',
    args: async () => {
      const path = join(dir, 'roller-spaces.json.gz')
      await writeGzip(path, [Buffer.from('['), ...repeat(Buffer.alloc(MiB, 32), 1024), Buffer.from(']')])
      return ['brreg_roller', path]
    },
  },
  {
    label: 'the same with --max-record-length 2Gi: the ratio stops it',
    args: async () => ['brreg_roller', join(dir, 'roller-spaces.json.gz'), '--max-record-length', '2Gi'],
  },
  {
    label: 'Lovdata: a bzip2 bomb, a tar member of 256 MiB of zeros',
    args: async () => {
      const path = join(dir, 'bomb.tar.bz2')
      const zeros = bzip2(Buffer.alloc(MiB))
      writeFileSync(
        path,
        Buffer.concat([
          bzip2(tarHeader('nl/big.bin', 256 * MiB)),
          ...Array.from({ length: 256 }, () => zeros),
          bzip2(Buffer.alloc(1024)),
        ]),
      )
      return ['lovdata_lover', path]
    },
  },
  {
    label: 'Lovdata: a tar of 200,000 empty members',
    args: async () => {
      const path = join(dir, 'members.tar.bz2')
      const tar = await packTar(Array.from({ length: 1000 }, (_, i) => ({ path: `e-${i}.txt`, xml: '' })))
      const members = bzip2(tar.subarray(0, tar.length - 1024))
      writeFileSync(path, Buffer.concat([...Array.from({ length: 200 }, () => members), bzip2(Buffer.alloc(1024))]))
      return ['lovdata_lover', path]
    },
  },
]

try {
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; load average before: ${load()}\n`,
  )
  console.log(`| file | on disk | exit | wall | peak RSS | under ${boundMiB} MiB | error line |`)
  console.log('|---|---|---|---|---|---|---|')
  for (const bomb of bombs) {
    const [id, ...rest] = await bomb.args()
    const file = rest[0]
    const timed = spawnSync(
      '/usr/bin/time',
      [
        '-f',
        '%e %M',
        process.execPath,
        cli,
        'datasets',
        'import',
        id,
        ...rest,
        '--data-dir',
        join(dir, 'data'),
        '--published',
        '2024-12-31',
      ],
      { encoding: 'utf8' },
    )
    const lines = timed.stderr.trim().split('\n')
    const [seconds, maxRssKb] = lines.at(-1).split(' ').map(Number)
    const error = lines.filter((line) => line.startsWith('error:'))
    const rss = Math.round(maxRssKb / 1024)
    console.log(
      `| ${bomb.label} | ${(statSync(file).size / 1024).toFixed(0)} KiB | ${timed.status} | ${seconds.toFixed(1)} s | ${rss} MiB | ${rss < boundMiB ? 'yes' : 'NO'} | ${error.join(' / ') || '(none)'} |`,
    )
  }
  console.log(`\nload average after: ${load()}`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
