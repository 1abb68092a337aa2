export { createLiteSvmChain, type LiteSvmChainConfig, type LocalnetChain } from './litesvm/index.js';
