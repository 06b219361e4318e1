export * from '@baton/testing';
