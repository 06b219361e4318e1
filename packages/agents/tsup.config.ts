import { packageConfig } from '../../tsup.package.js';

export default packageConfig(['src/index.ts', 'src/testing.ts']);
