import type { CompiledParameter } from './compile-parameters.js'

function typeName(parameter: CompiledParameter): string {
  if (parameter.enum) return parameter.enum.map(String).join('|')
  return parameter.type === 'boolean' ? 'yes/no' : parameter.type
}

function literal(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  return typeof value === 'string' ? JSON.stringify(value) : String(value)
}

/**
 * An operation's signature in the spec's form:
 * `name(param: type, required|optional, default ...; ...)`.
 *
 * @example
 * signature('get_physical_flow', params) // 'get_physical_flow(area: string, optional; limit: integer, optional, default 25; offset: integer, optional, default 0)'
 */
export function signature(name: string, parameters: CompiledParameter[]): string {
  const parts = parameters.map((p) => {
    const head = `${p.name}: ${typeName(p)}, ${p.required ? 'required' : 'optional'}`
    return p.default === undefined ? head : `${head}, default ${literal(p.default)}`
  })
  return `${name}(${parts.join('; ')})`
}
