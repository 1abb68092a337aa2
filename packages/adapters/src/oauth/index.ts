export * from './pg-store.js';
