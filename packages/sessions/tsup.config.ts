import { packageConfig } from '../../tsup.package.js';

// Two entries sharing chunks: the sessions, and the SQL plumbing the run-state stores build on too.
export default packageConfig(['src/index.ts', 'src/sql.ts'], { splitting: true });
