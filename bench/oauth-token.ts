// Prints an interface B access token for the bench, obtained the way a client does (register a
// client with the admin token, sign in with a wallet on the consent page, PKCE code exchange),
// reusing the test suite's helper. Prints one JSON line: {accessToken, wallet}.
//
//   npx tsx bench/oauth-token.ts <baseUrl> <adminToken>
import { obtainAccessToken, registerOAuthClient } from '../apps/server/test/support/oauth-token.js';

const [baseUrl, adminToken] = process.argv.slice(2);
if (!baseUrl || !adminToken) throw new Error('usage: tsx bench/oauth-token.ts <baseUrl> <adminToken>');
const client = await registerOAuthClient(baseUrl, adminToken);
const token = await obtainAccessToken(baseUrl, client);
console.log(JSON.stringify({ accessToken: token.accessToken, wallet: token.wallet.address }));
