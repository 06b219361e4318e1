import { packageConfig } from '../../tsup.package.js';

// Two entries sharing chunks, so the scripted model's classes are one whichever entry loaded them.
export default packageConfig(['src/index.ts', 'src/scripted.ts', 'src/contract.ts', 'src/postgres.ts', 'src/sessionContract.ts'], { splitting: true });
