import { packageBuild } from '../../tsup.package.js'

// One entry per source, so a bundle that imports one source holds only that source.
export default packageBuild({
  index: 'src/index.ts',
  'statnett/index': 'src/statnett/index.ts',
  'avinor/index': 'src/avinor/index.ts',
  'firmafakta/index': 'src/firmafakta/index.ts',
  'lovdata/index': 'src/lovdata/index.ts',
  'weather/index': 'src/weather/index.ts',
  'luftkvalitet/index': 'src/luftkvalitet/index.ts',
  'geonorge/index': 'src/geonorge/index.ts',
  'kystdatahuset/index': 'src/kystdatahuset/index.ts',
  'akvakultur/index': 'src/akvakultur/index.ts',
  'nobil/index': 'src/nobil/index.ts',
  'firms/index': 'src/firms/index.ts',
  'ais/index': 'src/ais/index.ts',
  'poi_norge/index': 'src/poi_norge/index.ts',
})
