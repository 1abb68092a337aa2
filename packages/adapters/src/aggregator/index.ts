export { createJupiterAggregator, type JupiterAggregatorConfig, jupiterError } from './jupiter.js';
export { createLocalAggregator, type LocalAggregatorDeps } from './local.js';
