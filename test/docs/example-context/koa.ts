/** Names the Koa examples may use without declaring them, beside those of `everywhere.ts`. */
import type Router from '@koa/router'
import type Koa from 'koa'

export { bodyParser } from '@koa/bodyparser'
export declare const app: Koa
/** docs/mounting.md calls the Koa app `koa`, beside an Express `app`. */
export declare const koa: Koa
export declare const router: Router
export declare const ctx: Koa.Context
export declare const next: Koa.Next
