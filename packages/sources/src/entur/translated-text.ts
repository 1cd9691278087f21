import * as v from 'valibot'

/** Entur Mobility's `TranslatedString`: `{ translation: [{ language, value }] }`, one entry per language the feed gives. */
export const translatedTextSchema = v.looseObject({
  translation: v.nullable(
    v.array(
      v.nullable(
        v.looseObject({ language: v.optional(v.nullable(v.string())), value: v.optional(v.nullable(v.string())) }),
      ),
    ),
  ),
})

// Norwegian first (GBFS feeds tag it nb, some no or nn), then English, then whatever there is.
const preference = ['nb', 'no', 'nob', 'nn', 'en']

/**
 * The one text of a translated string a row shows: the Norwegian one where the feed has it,
 * else the English one, else the first non-empty one; null when there is none.
 *
 * @example
 * pickTranslation({ translation: [{ language: 'en', value: 'Voi' }, { language: 'nb', value: 'Voi Oslo' }] }) // 'Voi Oslo'
 */
export function pickTranslation(text: v.InferOutput<typeof translatedTextSchema> | null | undefined): string | null {
  const entries = (text?.translation ?? []).flatMap((t) =>
    t?.value && t.value.trim() !== '' ? [{ language: (t.language ?? '').toLowerCase(), value: t.value.trim() }] : [],
  )
  for (const language of preference) {
    const found = entries.find((t) => t.language === language)
    if (found) return found.value
  }
  return entries[0]?.value ?? null
}
