// How a benchmark reads a server's CPU over IPC: the server script answers the message 'cpu'
// with the CPU time (user + system, µs) it has used so far, which is what a request costs the
// server whatever else the machine runs; the bench asks before and after a load.
import { once } from 'node:events'

/** In a server script: answer each 'cpu' message with this process's CPU µs so far. */
export function answerCpuQuestions() {
  process.on('message', (message) => {
    if (message === 'cpu') {
      const { user, system } = process.cpuUsage()
      process.send({ cpu: user + system })
    }
  })
}

/** The CPU µs a server child (one that calls {@link answerCpuQuestions}) has used so far. */
export async function cpuOf(child) {
  child.send('cpu')
  const [message] = await once(child, 'message')
  return message.cpu
}
