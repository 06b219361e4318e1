import { packageConfig } from '../../tsup.package.js';

// Two entries sharing chunks (in CJS too), so module state (the default model provider, the agent
// graph registry) is one whichever entry loaded it.
export default packageConfig(['src/index.ts', 'src/packageInternals.ts'], { splitting: true, keepNames: true, shims: true });
