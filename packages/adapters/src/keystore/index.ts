export { createEncryptedKeystore, type EncryptedKeystoreOptions, type KeySigner } from './encrypted.js';
export {
  deriveKey,
  type LoadMasterKeyOptions,
  loadOrCreateMasterKey,
  MASTER_KEY_ENV,
  MASTER_KEY_FILE,
  type MasterKey,
  parseMasterKey,
} from './master-key.js';
export { nodeKeySigner } from './node-signer.js';
