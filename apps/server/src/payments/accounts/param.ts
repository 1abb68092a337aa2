import { KEY_EXAMPLE } from '../../docs/components.js';
import { pathParam } from '../openapi.js';

/** The account a path names. */
export const accountParam = pathParam('publicKey', 'The account (base58, 32 bytes)', KEY_EXAMPLE);
