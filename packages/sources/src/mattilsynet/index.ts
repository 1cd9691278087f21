export { mattilsynet, type MattilsynetOptions } from './mattilsynet-source.js'
export { smilefjes } from './datasets/smilefjes.js'
export { SMILEFJES_COLUMNS, smilefjesDate } from './datasets/smilefjes-reader.js'
export { adressepunkter, ADDRESS_POINTS_FILE, ADDRESS_POINT_COLUMNS } from './datasets/adressepunkter.js'
export { deriveAddressPoints } from './geocode/derive-address-points.js'
export {
  geocodeEstablishmentAddresses,
  KARTVERKET_ADDRESS_API,
  type GeocodeOptions,
  type GeocodeProgress,
  type GeocodeSummary,
} from './geocode/geocode-addresses.js'
export { mattilsynetData, SMILEFJES_PATH } from './mattilsynet-upstream.js'
export { addressKey } from './address-key.js'
export { foodInspectionsPlaceField } from './place-fields.js'
export { mattilsynetDatasets } from './mattilsynet-datasets.js'
