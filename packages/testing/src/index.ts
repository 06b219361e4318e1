export * from './scripted.js';
export * from './fakeOpenAIServer/index.js';
export * from './serverProcess.js';
export * from './scriptProcess.js';
export * from './fakeComputer.js';
