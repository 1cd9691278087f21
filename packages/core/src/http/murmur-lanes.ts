/** Two 32-bit hash states, changed in place by {@link takeWords}. */
export interface MurmurLanes {
  a: number
  b: number
}

/**
 * Takes the first `count` 32-bit little-endian words of `bytes` into two lanes of murmur3's
 * body step, each with its own pair of constants: lane a with murmur3's own (0xcc9e2d51,
 * 0x1b873593), lane b with its finaliser's (0x85ebca6b, 0xc2b2ae35).
 *
 * It runs in WebAssembly: a cold process (a Lambda's first answer) would otherwise run the
 * loop in V8's interpreter, about 2 ms for a 37 KB body against about 1 ms here, compiling the
 * module (0.3 ms, once) included. Where WebAssembly is not available (`node --jitless`) the
 * same steps run in JavaScript. The tests hold both to the same lanes.
 *
 * @example
 * const lanes = { a: 1, b: 2 }
 * takeWords(Buffer.from('abcdefgh'), 2, lanes) // both lanes have taken in 'abcd' and 'efgh'
 */
export function takeWords(bytes: Uint8Array, count: number, lanes: MurmurLanes): void {
  const compiled = (laneCode ??= compiledLanes())
  if (compiled) takeWordsCompiled(compiled, bytes, count, lanes)
  else takeWordsInScript(bytes, count, lanes)
}

/** The module's exports: its one page of memory, `lanes(a, b, count)` over the words at offset 0, returning a and leaving b in the global `b`. */
interface LaneCode {
  memory: Uint8Array
  lanes: (a: number, b: number, count: number) => number
  b: { value: number }
}

/** The page's bytes: the words are copied in and taken a page at a time. */
const PAGE = 65536

/**
 * The module, assembled from this text (WebAssembly's text format):
 *
 * (module
 *   (memory (export "memory") 1)
 *   (global $b (export "b") (mut i32) (i32.const 0))
 *   (func (export "lanes") (param $a i32) (param $b i32) (param $words i32) (result i32)
 *     (local $end i32) (local $p i32) (local $w i32) (local $k i32)
 *     (local.set $end (i32.shl (local.get $words) (i32.const 2)))
 *     (block $done
 *       (loop $next
 *         (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
 *         (local.set $w (i32.load (local.get $p)))
 *         (local.set $k (i32.mul (i32.rotl (i32.mul (local.get $w) (i32.const 0xcc9e2d51)) (i32.const 15)) (i32.const 0x1b873593)))
 *         (local.set $a (i32.add (i32.mul (i32.rotl (i32.xor (local.get $a) (local.get $k)) (i32.const 13)) (i32.const 5)) (i32.const 0xe6546b64)))
 *         (local.set $k (i32.mul (i32.rotl (i32.mul (local.get $w) (i32.const 0x85ebca6b)) (i32.const 15)) (i32.const 0xc2b2ae35)))
 *         (local.set $b (i32.add (i32.mul (i32.rotl (i32.xor (local.get $b) (local.get $k)) (i32.const 13)) (i32.const 5)) (i32.const 0xe6546b64)))
 *         (local.set $p (i32.add (local.get $p) (i32.const 4)))
 *         (br $next)))
 *     (global.set $b (local.get $b))
 *     (local.get $a)))
 */
const LANES_WASM =
  'AGFzbQEAAAABCAFgA39/fwF/AwIBAAUDAQABBgYBfwFBAAsHFgMGbWVtb3J5AgABYgMABWxhbmVzAAAKgwEBgAEBBH8gAkECdCEDAkADQCAEIANPDQEgBCgCACEFIAVB0dr45HxsQQ93QZPrnNwBbCEGIAAgBnNBDXdBBWxB5NbRsn5qIQAgBUHrlK+veGxBD3dBtdzKlXxsIQYgASAGc0ENd0EFbEHk1tGyfmohASAEQQRqIQQMAAsLIAEkACAACw=='

/** The compiled module, false where it cannot be made; compiled on the first hash, not at import. */
let laneCode: LaneCode | false | undefined

/** What this file uses of WebAssembly, whose types TypeScript keeps in its DOM library, which the project leaves out. */
interface WebAssemblyHost {
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object) => { exports: object }
}

function compiledLanes(): LaneCode | false {
  const host = (globalThis as { WebAssembly?: WebAssemblyHost }).WebAssembly
  if (host === undefined) return false
  try {
    const exports = new host.Instance(new host.Module(Buffer.from(LANES_WASM, 'base64'))).exports as {
      memory: { buffer: ArrayBuffer }
      lanes: LaneCode['lanes']
      b: { value: number }
    }
    return { memory: new Uint8Array(exports.memory.buffer), lanes: exports.lanes, b: exports.b }
  } catch {
    // A host that refuses to compile WebAssembly (a policy, a sandbox): the script runs instead.
    return false
  }
}

function takeWordsCompiled(code: LaneCode, bytes: Uint8Array, count: number, lanes: MurmurLanes): void {
  const end = count * 4
  let { a, b } = lanes
  for (let at = 0; at < end; at += PAGE) {
    const length = Math.min(PAGE, end - at)
    code.memory.set(bytes.subarray(at, at + length))
    a = code.lanes(a, b, length >>> 2)
    b = code.b.value
  }
  lanes.a = a
  lanes.b = b
}

/**
 * One word taken into both lanes: what the module does for each word, and `weakEtag` for the
 * body's last one to three bytes (0 when there are none).
 */
export function takeWord(word: number, lanes: MurmurLanes): void {
  lanes.a = mixedIn(lanes.a, word, 0xcc9e2d51, 0x1b873593)
  lanes.b = mixedIn(lanes.b, word, 0x85ebca6b, 0xc2b2ae35)
}

/** murmur3's body step: one word into one lane, with the lane's constants. */
function mixedIn(lane: number, word: number, c1: number, c2: number): number {
  let k = Math.imul(word, c1)
  k = Math.imul((k << 15) | (k >>> 17), c2)
  const h = lane ^ k
  return (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0
}

/**
 * The module's steps in JavaScript, for a host without WebAssembly; exported for the tests,
 * which hold both to the same lanes. The words are read little-endian, as the module reads them,
 * wherever `bytes` starts in its buffer.
 */
export function takeWordsInScript(bytes: Uint8Array, count: number, lanes: MurmurLanes): void {
  const words = new DataView(bytes.buffer, bytes.byteOffset, count * 4)
  for (let i = 0; i < count; i++) takeWord(words.getInt32(i * 4, true), lanes)
}
