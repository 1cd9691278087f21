import type { DatasetDefinition } from '@allmenning/core/source'
import { aksjonaerregisteret } from './aksjonaerregisteret.js'
import { innovasjonNorgeTildelinger } from './innovasjon-norge-tildelinger.js'
import { forskningsradetSoknader } from './forskningsradet-soknader.js'
import { cordis } from './cordis.js'
import { skattefunn } from './skattefunn.js'
import { brregRoller } from './brreg-roller.js'

/** Every bulk dataset the firmafakta source reads, loaded with `allmenning datasets`. */
export const firmafaktaDatasets: DatasetDefinition[] = [
  aksjonaerregisteret,
  innovasjonNorgeTildelinger,
  cordis,
  forskningsradetSoknader,
  skattefunn,
  brregRoller,
]
