import { packageConfig } from '../../tsup.package.js';

// keepNames: users check `error instanceof DurableRunError` and read class names in logs.
export default packageConfig(['src/index.ts'], { keepNames: true });
