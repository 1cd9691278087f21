// Types of results-file.js, for the tests that import it from TypeScript.

export interface Figure {
  name: string
  value: number
  unit: 'ratio' | 'bytes' | 'ms' | 'µs'
  better: 'higher' | 'lower'
  /** Code that does not change between runs: growing past the noise says the machine was slower. */
  yardstick?: true
}

export interface ComparedFigure extends Figure {
  previous: number | undefined
  change: string
  slipped: boolean
  /** A yardstick's: it grew past the noise. */
  slower?: boolean
}

export interface Machine {
  cpu: string
  cores: number
  memoryGiB: number
  node: string
  commit: string
  dirty: boolean | undefined
}

export interface Run {
  startedAt: Date
  machine: Machine
  loadStart: string
  loadEnd: string
  settings: { rounds: number; seconds: number; connections: number; placement?: string }
  tables: string[]
  figures: Figure[]
}

export const beginMarker: string
export const endMarker: string
export const noise: {
  ratio: { absolute: number; describe: string }
  bytes: { relative: number; describe: string }
  ms: { relative: number; absolute: number; describe: string }
  us: { relative: number; absolute: number; describe: string }
}
export function createFigures(): {
  record(
    name: string,
    value: number,
    kind: { unit: Figure['unit']; better: Figure['better']; yardstick?: boolean },
  ): void
  list(): Figure[]
}
export function describeMachine(options?: { cwd?: string }): Machine
export function loadAverage(): string
export function compareFigures(previous: Figure[] | undefined, current: Figure[]): ComparedFigure[]
export function previousFigures(text: string): Figure[] | undefined
export function renderBlock(run: Run & { previous: Figure[] | undefined }): string
export function replaceBlock(text: string, block: string): string
export function writeAtomically(
  file: string,
  text: string,
  options?: { write?: (file: string, text: string) => void },
): void
export function writeRun(file: string, run: Run, options?: { write?: (file: string, text: string) => void }): string
export function shouldWrite(argv?: string[], env?: Record<string, string | undefined>): boolean
