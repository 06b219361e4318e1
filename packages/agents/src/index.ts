export * from '@baton/core';
