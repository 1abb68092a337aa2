export * from './events.js';
export * from './hub.js';
export * from './params.js';
export * from './protocol.js';
export * from './server.js';
