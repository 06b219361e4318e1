/**
 * Releases through a registry, as users get them: one throwaway Verdaccio, every package published
 * to it once with `npm run release` (`--no-build`: `npm test` has just built and type-checked them),
 * then, sharing that release, the READMEs (readmes.ts), the docs guides and their samples
 * (guides.ts; installs shared with the READMEs that install the same), the versions-side-by-side guide
 * (versionsSideBySide.ts) and the third-party dependency ranges (dependencyRanges.ts). Their
 * installs run a few at a time, their code is type-checked together (blockRunner.ts), their runs a
 * few at a time; where the time went is printed at the end.
 *
 * Assumes the packages are built. Third-party packages come through the registry npm is set up with
 * (the uplink); nothing else is reached over the network.
 */
import { afterAll, beforeAll } from 'vitest';
import { describeDependencyRanges, prepareDependencyRanges } from './dependencyRanges.js';
import { describeGuides, prepareGuides, runGuides } from './guides.js';
import { describeReadmes, prepareReadmes, runReadmes } from './readmes.js';
import { enabled, RegistrySession } from './registrySession.js';
import { describeVersionsSideBySide, prepareVersionsSideBySide, publishVersionsSideBySide } from './versionsSideBySide.js';

const session = new RegistrySession();

beforeAll(async () => {
  if (!enabled) return;
  await session.start();
  // Before any install: npm caches what it reads of @baton/* (see publishVersionsSideBySide).
  await publishVersionsSideBySide(session);
  prepareReadmes(session);
  prepareGuides(session);
  prepareVersionsSideBySide(session);
  prepareDependencyRanges(session);
  session.seal();
  runReadmes(session);
  runGuides(session);
}, 600_000);

// Removing the projects' node_modules takes minutes on a busy disk.
afterAll(() => session.stop(), 600_000);

describeReadmes(session);
describeGuides(session);
describeVersionsSideBySide(session);
describeDependencyRanges(session);
