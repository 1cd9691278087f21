// compressjs ships no types; this is the one function the test stand-ins use.
declare module 'compressjs' {
  const compressjs: {
    Bzip2: {
      /** Compresses bytes into a bzip2 stream; `blockSize` 1..9 is the block size in units of 100 kB. */
      compressFile(input: Uint8Array, output?: undefined, blockSize?: number): Uint8Array | number[]
    }
  }
  export default compressjs
}
