/** The entity type of an establishment, linked to `search_establishments` by its name. */
export const ESTABLISHMENT_ENTITY = 'food_establishment'
