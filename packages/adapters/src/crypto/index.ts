export { randomToken, sha256Hex } from './hash.js';
export { createHmacMac } from './mac.js';
