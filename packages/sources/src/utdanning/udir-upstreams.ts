import { defineUpstream } from '@allmenning/core/source'

/**
 * Udir's national school register (Nasjonalt skoleregister, NSR), version 4 of its open REST
 * API: `/enheter/kommune/{nr}` and `/enheter/fylke/{nr}` list the units of an area with their
 * flags (no position), `/enhet/{orgnr}` gives one unit in full, its `Koordinat` included.
 * Keyless, NLOD. Udir asks no rate limit of its own; the source keeps to its budget anyway.
 */
export const udirNsr = defineUpstream({
  id: 'udir_nsr',
  name: 'Udir Nasjonalt skoleregister (NSR)',
  baseUrl: 'https://data-nsr.udir.no/v4',
  publisher: 'Utdanningsdirektoratet (Nasjonalt skoleregister)',
  license: 'NLOD',
  // A county's list is a few thousand units of some hundred bytes each.
  maxBodyBytes: 8 * 1024 * 1024,
})

/**
 * Udir's national kindergarten register (Nasjonalt barnehageregister, NBR), version 4: the same
 * API as {@link udirNsr} with kindergarten flags (`ErBarnehage`, `ErPrivatBarnehage`, ...).
 */
export const udirNbr = defineUpstream({
  id: 'udir_nbr',
  name: 'Udir Nasjonalt barnehageregister (NBR)',
  baseUrl: 'https://data-nbr.udir.no/v4',
  publisher: 'Utdanningsdirektoratet (Nasjonalt barnehageregister)',
  license: 'NLOD',
  maxBodyBytes: 8 * 1024 * 1024,
})

/** Which of Udir's two registers a unit is in. */
export type UdirRegister = 'nsr' | 'nbr'

/**
 * The upstream of a register.
 *
 * @example
 * ctx.upstream(registerUpstream('nbr')) // the kindergarten register's client
 */
export function registerUpstream(register: UdirRegister) {
  return register === 'nsr' ? udirNsr : udirNbr
}
