// What every benchmark script shares: pinning the load generator and the server to separate
// cores, starting a server script in its own pinned process, and the median of rounds.
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { cpus } from 'node:os'
import { fileURLToPath } from 'node:url'

// On a shared two-core machine the scheduler moving the server and the load generator
// between cores is most of the noise; pinning them apart steadies the ratio.
function pinSelf() {
  if (cpus().length < 2) return false
  try {
    execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Whether this process (the load generator) is pinned to core 1, and servers go to core 0. */
export const pinned = pinSelf()

/** How the tables say where things ran. */
export const placement = pinned ? 'server pinned to core 0, load generator to core 1' : 'unpinned'

/** Starts a server script of bench/ in its own process (on core 0 when pinned) and waits for its first message. */
export async function startServer(script, args) {
  const file = fileURLToPath(new URL(script, import.meta.url))
  const command = pinned ? ['taskset', '-c', '0', process.execPath] : [process.execPath]
  const child = spawn(command[0], [...command.slice(1), file, ...args], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  })
  const [message] = await once(child, 'message')
  return { child, message }
}

/** Stops a process and waits for it to be gone, so what runs next has its core to itself. */
export async function stopProcess(child) {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill()
    await once(child, 'exit')
  }
}

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
