/**
 * The `ET-Client-Name` Entur asks every caller to send, `<company>-<application>`, read from
 * the User-Agent the gateway already sends upstream: the contact in it (an e-mail address or
 * a URL, as the examples add from `ALLMENNING_CONTACT`) names the company by its domain, the
 * User-Agent's product names the application. Without a contact the name is the product's
 * alone, which every such deployment shares, and so shares Entur's quota for it: set a
 * contact, or give the source a `clientName` of its own.
 *
 * @example
 * enturClientName('allmenning/0.1.0 (+ops@example.no)') // 'example.no-allmenning'
 * enturClientName('allmenning/0.1.0 (+https://data.example.no/about)') // 'data.example.no-allmenning'
 * enturClientName('allmenning/0.1.0') // 'allmenning-gateway'
 */
export function enturClientName(userAgent: string): string {
  // Entur's examples are lower case without spaces, `brakar-journeyplanner`.
  const product = clean(/^\s*([^\s/()]+)/.exec(userAgent)?.[1] ?? '').toLowerCase() || 'allmenning'
  const email = /[^\s@()<>+]+@([^\s@()<>]+\.[^\s@()<>]+)/.exec(userAgent)?.[1]
  const url = /https?:\/\/([^\s/()<>:]+)/i.exec(userAgent)?.[1]
  const company = clean((email ?? url ?? '').toLowerCase())
  if (!company) return product.includes('-') ? product : `${product}-gateway`
  return product.includes(company) ? product : `${company}-${product}`
}

/** Letters, digits, `.`, `_` and `-` only: nothing that could break or forge a header. */
function clean(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/g, '').slice(0, 100)
}

/**
 * A `clientName` given to the source, checked: what Entur's examples look like, so a typo
 * fails at start-up rather than in every call.
 *
 * @example
 * checkedClientName('example_as-departures') // 'example_as-departures'
 */
export function checkedClientName(name: string): string {
  const trimmed = name.trim()
  if (!/^[A-Za-z0-9._]+-[A-Za-z0-9._-]+$/.test(trimmed) || trimmed.length > 100) {
    throw new TypeError(
      `entur: clientName "${name}" must read <company>-<application> (letters, digits, ".", "_", "-"; at most 100 characters)`,
    )
  }
  return trimmed
}
