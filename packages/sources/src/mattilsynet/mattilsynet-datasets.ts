import type { DatasetDefinition } from '@allmenning/core/source'
import { adressepunkter } from './datasets/adressepunkter.js'
import { smilefjes } from './datasets/smilefjes.js'

/** Every bulk dataset the mattilsynet source reads, loaded with `allmenning datasets`. */
export const mattilsynetDatasets: DatasetDefinition[] = [smilefjes, adressepunkter]
