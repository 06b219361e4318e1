import { packageConfig } from '../../tsup.package.js';

// keepNames: users check `span instanceof Span` and read class names in logs. The OpenTelemetry
// subpath is its own entry, so the OpenTelemetry SDK loads only for those who import it.
export default packageConfig(['src/index.ts', 'src/opentelemetry/index.ts'], { keepNames: true });
