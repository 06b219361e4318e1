import { packageConfig } from '../../tsup.package.js';

// Two entries sharing chunks (in CJS too), so `RunStateError` and the other classes are one class
// whichever entry a module loaded them through.
export default packageConfig(['src/index.ts', 'src/internal.ts'], { splitting: true, keepNames: true });
