import { packageConfig } from '../../tsup.package.js';

// The SQL plumbing the stores share with @baton/sessions (`@baton/sessions/sql`) is compiled in, code
// and declarations (read from its source): one source for both packages, and no runtime dependency of
// this one on sessions.
export default packageConfig(['src/index.ts'], {
  noExternal: [/^@baton\/sessions/],
  dts: { resolve: [/^@baton\/sessions/], compilerOptions: { baseUrl: '.', paths: { '@baton/sessions/sql': ['../sessions/src/sql.ts'] } } },
});
