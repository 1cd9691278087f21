import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'

/** Whether a redis-server binary is on this machine (CI installs one; .ci/run says how). */
export function redisServerAvailable(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

export interface RedisServer {
  url: string
  /** Kills it (SIGKILL: no goodbye to its clients); safe to call when it is already stopped. */
  stop(): Promise<void>
  /** Starts it again after `stop`, on the same port and empty, as a restarted Redis without persistence. */
  restart(): Promise<void>
}

/** Spawns redis-server on `port` and waits until it accepts connections; resolves to its exit. */
async function spawnRedis(port: number): Promise<{ child: ChildProcess; exited: Promise<void> }> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis-server did not start within 5 s')), 5000)
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready to accept connections')) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)))
  })
  return { child, exited }
}

/** Starts a throwaway redis-server on a free loopback port, with nothing written to disk. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort()
  let running: { child: ChildProcess; exited: Promise<void> } | undefined = await spawnRedis(port)
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      // Safe to call twice: a killed process has a signalCode, not an exitCode, so wait on
      // the one exit promise instead of asking the process again.
      running?.child.kill('SIGKILL')
      await running?.exited
      running = undefined
    },
    restart: async () => {
      if (running) throw new Error('redis-server is still running; stop it first')
      running = await spawnRedis(port)
    },
  }
}
