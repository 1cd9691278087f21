import { connect } from 'node:net'
import type { AdapterConformanceCase } from '@allmenning/core/conformance'

/** The header the suite's `onResponse` hook marks every answer with (one-exit-cases.ts), and the one that makes it refuse. */
const exitHeader = 'x-conformance-exit'
const refuseHeader = 'x-conformance-refuse'

/** Raw bytes on a fresh connection to `origin`; resolves with the answer's head lines and body once the server closes it. */
function raw(origin: string, text: string): Promise<{ head: string[]; body: string }> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text))
    let received = ''
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()))
    socket.on('close', () => {
      const [head = '', ...body] = received.split('\r\n\r\n')
      resolve({ head: head.split('\r\n'), body: body.join('\r\n\r\n') })
    })
    socket.on('error', reject)
  })
}

/**
 * For an adapter on a Node server it controls, with `answerServerRefusals(server, gateway)`:
 * what Node refuses before the adapter sees it leaves through the gateway's exit, so the
 * suite's hook marks the 417 and the 501 (and may rewrite them) and the 400 of a request Node
 * could not read.
 */
export const serverRefusalsThroughTheExit: AdapterConformanceCase = {
  name: "onResponse: the Node server's own refusals (417, 501, 400) pass the host's hook",
  async run(ctx) {
    const { expect } = ctx
    const get = `GET ${ctx.prefix}/api/v1/ HTTP/1.1\r\nHost: x\r\nExpect: the-unexpected\r\n`
    const cases: [string, string, number, number][] = [
      ['an unmet Expect', `${get}\r\n`, 417, 417],
      ['an unmet Expect the hook refuses', `${get}${refuseHeader}: 1\r\n\r\n`, 417, 403],
      ['a CONNECT', 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n', 501, 501],
      ['a request Node cannot read', 'BREW / HTTP/1.1\r\nHost: x\r\n\r\n', 400, 400],
    ]
    for (const [what, text, refused, answered] of cases) {
      const { head, body } = await raw(ctx.origin, text)
      expect(head[0], what).toMatch(new RegExp(`^HTTP/1.1 ${answered} `))
      expect(head, what).toContain(`${exitHeader}: ${refused}`)
      expect(JSON.parse(body).error.status, what).toBe(answered)
    }
  },
}
