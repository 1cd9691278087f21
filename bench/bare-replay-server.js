// A bare route of one framework sending the bytes and headers it is given (an answer the
// example gateway sent), in a process of its own: what the framework costs by itself, to
// measure the example against in the same run. Usage: node bare-replay-server.js <express|koa> <path>,
// the answer sent over IPC as { headers, body }.
import { once } from 'node:events'
import { answerCpuQuestions } from './cpu-question.js'

const [framework, route] = process.argv.slice(2)
const [{ headers, body }] = await once(process, 'message')

async function express() {
  const { default: express } = await import('express')
  const app = express()
  app.disable('x-powered-by')
  app.get(route, (_req, res) => {
    res.status(200).set(headers).end(body)
  })
  return app
}

async function koa() {
  const { default: Koa } = await import('koa')
  const app = new Koa()
  app.use((ctx) => {
    if (ctx.path !== route) return
    ctx.status = 200
    ctx.set(headers)
    ctx.body = body
  })
  return app.callback()
}

const { createServer } = await import('node:http')
const server = createServer(framework === 'koa' ? await koa() : await express())
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }))
process.on('SIGINT', () => process.exit(0))
answerCpuQuestions()
