import { packageConfig } from '../../tsup.package.js';

// The root entry and the experimental hosted multi-agent subpath, sharing chunks.
export default packageConfig(undefined, {
  entry: { index: 'src/index.ts', 'experimental/hosted-multi-agent': 'src/experimental/hosted-multi-agent.ts' },
  splitting: true,
});
