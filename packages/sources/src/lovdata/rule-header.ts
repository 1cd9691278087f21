import * as v from 'valibot'

/** The header fields of a law or regulation, as `search_rules` and `get_rule` answer them (spec 4.5). */
export const ruleHeaderFields = {
  document_id: v.string(),
  source: v.string(),
  legacy_id: v.nullable(v.string()),
  title: v.string(),
  title_short: v.nullable(v.string()),
  ministry: v.nullable(v.string()),
  in_force_from: v.nullable(v.string()),
  last_change_in_force: v.nullable(v.string()),
}
