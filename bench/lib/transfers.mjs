import { createPrivateKey, sign } from 'node:crypto';

/**
 * Signed SOL transfers made from one compiled transfer message (`template`, signed by the payer
 * whose 64-byte `secretKey` is given): only its lamports, the message's last 8 bytes, differ from
 * one to the next, so every signature is distinct. Returns `lamports => wire bytes`.
 */
export function transfersFrom(secretKey, template) {
  // An Ed25519 PKCS#8 document is a fixed header followed by the 32-byte seed (RFC 8410).
  const key = createPrivateKey({
    key: Buffer.concat([
      Buffer.from('302e020100300506032b657004220420', 'hex'),
      Buffer.from(secretKey.slice(0, 32)),
    ]),
    format: 'der',
    type: 'pkcs8',
  });
  return (lamports) => {
    const message = Buffer.from(template);
    message.writeBigUInt64LE(BigInt(lamports), message.length - 8);
    return Buffer.concat([Buffer.from([1]), sign(null, message, key), message]);
  };
}
