export { createEncryptedKeystore, type EncryptedKeystoreOptions } from './encrypted.js';
export {
  deriveKey,
  type LoadMasterKeyOptions,
  loadOrCreateMasterKey,
  MASTER_KEY_ENV,
  MASTER_KEY_FILE,
  type MasterKey,
  parseMasterKey,
} from './master-key.js';
