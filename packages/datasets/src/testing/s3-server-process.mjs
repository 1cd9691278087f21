// Runs an S3 protocol server (s3rver) in a process of its own, so a test can kill it mid-transfer
// the way a crashed or unplugged store goes away. Arguments: the storage folder and the bucket.
// Prints one JSON line with the port once it listens.
import S3rver from 's3rver'

const [directory, bucket] = process.argv.slice(2)
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  configureBuckets: [{ name: bucket, configs: [] }],
})
const address = await server.run()
process.stdout.write(`${JSON.stringify({ port: address.port })}\n`)
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)))
