import { cpSync, existsSync, readdirSync } from 'node:fs'
import { packageBuild } from '../../tsup.package.js'

// One entry per source (as package.json exports them), so a bundle that imports one source
// holds only that source; beside each, `<id>/testing`, its fake upstream for users' tests, which
// reads its recorded fixtures from beside itself (so they are copied there); and `testing`,
// every built-in upstream played at once for the offline demo. shims: the CommonJS build needs
// import.meta.url, for those fixtures and for the bzip2 decoder Lovdata loads.
export default {
  ...packageBuild(),
  shims: true,
  // A testing entry that uses another source's players imports that source's testing entry by
  // name, never its files: a fake that reads ./fixtures/ beside itself must stay in its own
  // entry's folder, not in a shared chunk or another entry (where ./fixtures/ is not its own).
  external: [/^@allmenning\/sources\//],
  onSuccess: async () => {
    for (const id of readdirSync('src')) {
      if (existsSync(`src/${id}/testing/fixtures`))
        cpSync(`src/${id}/testing/fixtures`, `dist/${id}/testing/fixtures`, { recursive: true })
    }
  },
}
