import { packageConfig } from '../../tsup.package.js';

// keepNames: users check `error instanceof AiSdkProviderError` and read class names in logs.
// Two entries: the model adapter (`.`) and the UI stream adapter (`./ui`), sharing chunks.
export default packageConfig(['src/index.ts', 'src/ui.ts'], { keepNames: true, splitting: true });
