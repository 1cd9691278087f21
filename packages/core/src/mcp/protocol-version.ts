/**
 * The MCP protocol versions the gateway speaks, newest first. 2025-11-25 is the newest the
 * official TypeScript SDK's client speaks; the older ones differ from it, for a stateless
 * tools-only server, only in fields their clients ignore (`structuredContent`, `title`) and in
 * JSON-RPC batches, which only 2025-03-26 allows. 2024-11-05 clients reach the endpoint only
 * when they try Streamable HTTP first, but what they are sent is valid for them too.
 */
export const supportedProtocolVersions = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const

export type ProtocolVersion = (typeof supportedProtocolVersions)[number]

export const latestProtocolVersion: ProtocolVersion = supportedProtocolVersions[0]

/**
 * The version assumed for a request without an `MCP-Protocol-Version` header, as the
 * Streamable HTTP transport prescribes for clients that predate the header.
 */
export const defaultProtocolVersion: ProtocolVersion = '2025-03-26'

export function isSupportedProtocolVersion(version: unknown): version is ProtocolVersion {
  return typeof version === 'string' && (supportedProtocolVersions as readonly string[]).includes(version)
}

/**
 * The version an `initialize` answers with: the client's own when the gateway speaks it,
 * otherwise the newest the gateway speaks (the client then decides whether to go on).
 *
 * @example
 * negotiateProtocolVersion('2025-06-18') // '2025-06-18'
 * negotiateProtocolVersion('1999-01-01') // '2025-11-25'
 */
export function negotiateProtocolVersion(requested: string): ProtocolVersion {
  return isSupportedProtocolVersion(requested) ? requested : latestProtocolVersion
}

/** Whether a POST may carry a JSON-RPC batch: 2025-03-26 brought them in and 2025-06-18 took them out. */
export function allowsBatches(version: ProtocolVersion): boolean {
  return version === '2025-03-26'
}
