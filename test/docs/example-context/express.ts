/** Names the Express examples may use without declaring them, beside those of `everywhere.ts`. */
import type { Express, NextFunction, Request, Response } from 'express'

export { default as express } from 'express'
export declare const app: Express
export declare const req: Request
export declare const res: Response
export declare const next: NextFunction
