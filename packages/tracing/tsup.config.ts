import { packageConfig } from '../../tsup.package.js';

// keepNames: users check `span instanceof Span` and read class names in logs. The OpenTelemetry
// subpath is its own entry, and it loads the OpenTelemetry packages (optional peers) only when a
// processor is made; shims gives the CJS build the `import.meta.url` that loading starts from.
export default packageConfig(['src/index.ts', 'src/opentelemetry/index.ts'], { keepNames: true, shims: true });
