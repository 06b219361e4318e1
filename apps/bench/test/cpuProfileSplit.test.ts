import { describe, expect, it } from 'vitest';
import { cpuGroupOf, cpuProfileSplit } from '../src/scenarios/cpuProfileSplit.js';

// The split of a worker's CPU profile by package (issue 28), on the URLs pnpm's store and the
// repository give the scripts, and V8's own pseudo-functions.
const store = '/repo/node_modules/.pnpm';
describe('cpuProfileSplit', () => {
  it('names the package of each sampled function from its script URL', () => {
    const group = (url: string, functionName = 'f') => cpuGroupOf({ url, functionName });
    expect(group(`file://${store}/@dbos-inc+dbos-sdk@5.3.0/node_modules/@dbos-inc/dbos-sdk/dist/src/system_database.js`)).toBe('DBOS');
    expect(group(`file://${store}/pg@8.23.1/node_modules/pg/lib/client.js`)).toBe('pg driver');
    expect(group(`file://${store}/pg-pool@3.14.0_pg@8.23.1/node_modules/pg-pool/index.js`)).toBe('pg driver');
    expect(group(`file://${store}/pg-protocol@1.10.0/node_modules/pg-protocol/dist/serializer.js`)).toBe('pg driver');
    expect(group(`file://${store}/superjson@2.2.2/node_modules/superjson/dist/index.js`)).toBe('serialization (SuperJSON)');
    expect(group(`file://${store}/copy-anything@3.0.5/node_modules/copy-anything/dist/index.js`)).toBe('serialization (SuperJSON)');
    expect(group(`file://${store}/effect@4.0.0/node_modules/effect/dist/Effect.js`)).toBe('Baton loop (core, types, Effect, zod)');
    expect(group('file:///repo/packages/core/dist/index.js')).toBe('Baton loop (core, types, Effect, zod)');
    expect(group('file:///repo/packages/dbos/dist/index.js')).toBe('Baton dbos glue');
    expect(group('node:internal/streams/writable')).toBe('Node (streams, async hooks, timers)');
    expect(group('', 'writev')).toBe('socket writes');
    expect(group('', '(garbage collector)')).toBe('garbage collection');
    expect(group('', '(idle)')).toBe('idle');
    expect(group('', '(program)')).toBe('V8 and other native');
  });

  it('sums the self time of the samples by group, idle left out, largest first', () => {
    const nodes = [
      { id: 1, callFrame: { functionName: '(idle)', url: '' } },
      { id: 2, callFrame: { functionName: 'runStep', url: `file://${store}/@dbos-inc+dbos-sdk@5.3.0/node_modules/@dbos-inc/dbos-sdk/dist/src/dbos.js` } },
      { id: 3, callFrame: { functionName: 'writev', url: '' } },
      { id: 4, callFrame: { functionName: 'runWorkflow', url: 'file:///repo/packages/dbos/dist/index.js' } },
    ];
    const split = cpuProfileSplit({ nodes, samples: [1, 2, 3, 3, 4, 1, 2], timeDeltas: [5000, 1000, 2000, 2000, 500, 9000, 500] });
    expect(split.busyMs).toBe(6);
    expect(split.groups).toEqual([
      { group: 'socket writes', ms: 4, share: 4 / 6 },
      { group: 'DBOS', ms: 1.5, share: 1.5 / 6 },
      { group: 'Baton dbos glue', ms: 0.5, share: 0.5 / 6 },
    ]);
  });
});
