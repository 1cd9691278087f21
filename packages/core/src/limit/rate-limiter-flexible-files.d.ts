// rate-limiter-flexible's index loads every store it offers (Mongo, Postgres, DynamoDB, etcd, the
// cluster master and more) and node:cluster with them; the core imports the two files its Redis counting uses.
// They ship no declarations of their own, so these borrow the package's.
declare module 'rate-limiter-flexible/lib/RateLimiterRedis.js' {
  import { RateLimiterRedis } from 'rate-limiter-flexible'
  export default RateLimiterRedis
}

declare module 'rate-limiter-flexible/lib/RateLimiterRes.js' {
  import { RateLimiterRes } from 'rate-limiter-flexible'
  export default RateLimiterRes
}
