export * from './config.js';
export * from './compose.js';
export * from './loops.js';
