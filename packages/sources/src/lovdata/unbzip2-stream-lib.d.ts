// unbzip2-stream ships no types; these are the two files of it the block decoder uses.
declare module 'unbzip2-stream/lib/bzip2.js' {
  type BitReader = ((n: number | null) => number) & { bytesRead: number }
  const bzip2: {
    header(bits: BitReader): number
    decompress(
      bits: BitReader,
      write: (byte: number) => void,
      buf: Int32Array,
      bufsize: number,
      streamCRC: number | null,
    ): number | null
  }
  export default bzip2
}

declare module 'unbzip2-stream/lib/bit_iterator.js' {
  const bitIterator: (next: () => Uint8Array | undefined) => ((n: number | null) => number) & { bytesRead: number }
  export default bitIterator
}
