import type { OAuthScope } from '@token-actions/core';

const SCOPE_TEXT: Record<OAuthScope, string> = {
  read: 'Read swap data (pools, quotes, past swaps)',
  write: 'Prepare and execute swaps on your behalf',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const STYLE = `
body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1c1c1c}
h1{font-size:1.3rem}ul{padding-left:1.2rem}button{font-size:1rem;padding:.6rem 1.2rem;margin-right:.6rem;cursor:pointer}
#status{min-height:1.5rem;color:#8a1c1c}.muted{color:#666;font-size:.9rem}code{word-break:break-all}
.dev{border:2px dashed #b36b00;padding:.4rem 1rem 1rem;margin:1rem 0}.dev h2{font-size:1.05rem;color:#b36b00}
`;

function layout(title: string, body: string, cspNonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style nonce="${cspNonce}">${STYLE}</style></head>
<body>${body}</body></html>`;
}

/**
 * Only own scripts and styles (by nonce), no framing, fetches to this origin only, and forms
 * posted only to this origin (plus `formTargets`: browsers check the redirect that answers a form
 * against `form-action` too, so the consent page names its client's redirect origin).
 */
export function pageSecurityHeaders(
  cspNonce: string,
  formTargets: readonly string[] = [],
): Record<string, string> {
  return {
    'Content-Security-Policy': [
      "default-src 'none'",
      `script-src 'nonce-${cspNonce}'`,
      `style-src 'nonce-${cspNonce}'`,
      "connect-src 'self'",
      "base-uri 'none'",
      ["form-action 'self'", ...formTargets].join(' '),
      "frame-ancestors 'none'",
    ].join('; '),
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  };
}

export interface ConsentPageInput {
  readonly clientName: string;
  readonly clientId: string;
  readonly redirectOrigin: string;
  readonly scope: readonly OAuthScope[];
  /** The validated authorization request, echoed back by the form. */
  readonly params: Readonly<Record<string, string>>;
  readonly formAction: string;
  readonly challengeUrl: string;
  readonly cspNonce: string;
  /**
   * Offer the development wallet (a key pair made in the page) when no wallet extension is
   * present. Only on the embedded localnet: elsewhere the page holds neither its button nor its code.
   */
  readonly devWallet?: boolean;
}

// The page talks to the wallet only through the injected provider API (window.solana: connect,
// publicKey, signMessage), so any Solana wallet, a test's own, or the development wallet can sign in.
const SIGN_IN_SCRIPT = `
var form = document.getElementById('consent');
var status = document.getElementById('status');
function say(text) { status.textContent = text; }
function toBase64(bytes) { var s = ''; for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]); return btoa(s); }
// The challenge names this very authorization request, so the signature cannot serve another.
var REQUEST_FIELDS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'];
function challengeFields(address) {
  var fields = { address: address };
  REQUEST_FIELDS.forEach(function (name) { if (form.elements[name]) fields[name] = form.elements[name].value; });
  return fields;
}
function addressOf(pk) { if (!pk) return ''; if (typeof pk === 'string') return pk; return pk.toBase58 ? pk.toBase58() : String(pk); }
function injectedWallet() { return window.solana || (window.phantom && window.phantom.solana); }
async function signInWith(provider, button) {
  button.disabled = true;
  try {
    say('Connecting to your wallet…');
    var connected = await provider.connect();
    var address = addressOf((connected && connected.publicKey) || provider.publicKey);
    if (!address) throw new Error('the wallet did not share a public key');
    var res = await fetch(form.dataset.challenge, {
      method: 'POST', headers: { 'content-type': 'application/json' }, credentials: 'same-origin',
      body: JSON.stringify(challengeFields(address))
    });
    var challenge = await res.json();
    if (!res.ok) throw new Error(challenge.error_description || 'the sign-in challenge failed');
    say('Waiting for your signature…');
    var signed = await provider.signMessage(new TextEncoder().encode(challenge.message), 'utf8');
    var signature = signed && signed.signature ? signed.signature : signed;
    form.elements.address.value = address;
    form.elements.signature.value = toBase64(new Uint8Array(signature));
    form.elements.nonce.value = challenge.nonce;
    form.elements.issued_at.value = challenge.issuedAt;
    form.elements.expiration_time.value = challenge.expirationTime;
    form.elements.decision.value = 'approve';
    say('Signed in as ' + address + '. Redirecting…');
    form.submit();
  } catch (e) {
    button.disabled = false;
    say('Sign-in failed: ' + (e && e.message ? e.message : e));
  }
}
`;

const WALLET_SCRIPT = (noWallet: string) => `
var approve = document.getElementById('approve');
approve.addEventListener('click', function () {
  var provider = injectedWallet();
  if (!provider) { say(${JSON.stringify(noWallet)}); return; }
  signInWith(provider, approve);
});
`;

// The development wallet: an Ed25519 key pair made here with WebCrypto (its private key cannot be
// exported), behind the same provider API, signing the same SIWS message. Shown only when no
// wallet extension is present.
const DEV_WALLET_SCRIPT = `
var ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function base58(bytes) {
  var digits = [0];
  for (var i = 0; i < bytes.length; i++) {
    var carry = bytes[i];
    for (var j = 0; j < digits.length; j++) { carry += digits[j] << 8; digits[j] = carry % 58; carry = (carry / 58) | 0; }
    while (carry) { digits.push(carry % 58); carry = (carry / 58) | 0; }
  }
  var out = '';
  for (var k = 0; k < bytes.length && bytes[k] === 0; k++) out += '1';
  for (var d = digits.length - 1; d >= 0; d--) out += ALPHABET[digits[d]];
  return out;
}
function developmentWallet() {
  var pair;
  return {
    connect: async function () {
      pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify']);
      var raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
      return { publicKey: base58(raw) };
    },
    signMessage: async function (bytes) {
      return { signature: new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, pair.privateKey, bytes)) };
    }
  };
}
var devSection = document.getElementById('dev-wallet');
var devApprove = document.getElementById('dev-wallet-approve');
if (!injectedWallet()) devSection.hidden = false;
devApprove.addEventListener('click', function () { signInWith(developmentWallet(), devApprove); });
`;

const DEV_WALLET_SECTION = `
<section id="dev-wallet" class="dev" hidden>
<h2>Development wallet (localnet only)</h2>
<p class="muted">No wallet extension was found. This server runs the embedded localnet, so you may sign in with a
throwaway key pair made in this page: a new wallet each time, holding nothing, never for real funds.</p>
<button type="button" id="dev-wallet-approve">Sign in with a development wallet and approve</button>
</section>`;

export function consentPage(input: ConsentPageInput): string {
  const hidden = Object.entries(input.params)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const scopes = input.scope.map((s) => `<li>${escapeHtml(SCOPE_TEXT[s])} <code>${s}</code></li>`).join('');
  const body = `
<h1>${escapeHtml(input.clientName)} wants access to your wallet's swaps</h1>
<p>Sign in with your Solana wallet to let <strong>${escapeHtml(input.clientName)}</strong>
<span class="muted">(${escapeHtml(input.clientId)})</span> act with these permissions:</p>
<ul>${scopes}</ul>
<p class="muted">You will be sent back to <code>${escapeHtml(input.redirectOrigin)}</code>. Signing costs nothing and sends no transaction.</p>
<form id="consent" method="post" action="${escapeHtml(input.formAction)}" data-challenge="${escapeHtml(input.challengeUrl)}">
${hidden}
<input type="hidden" name="address" value=""><input type="hidden" name="signature" value="">
<input type="hidden" name="nonce" value=""><input type="hidden" name="issued_at" value="">
<input type="hidden" name="expiration_time" value="">
<button type="button" id="approve">Sign in with wallet and approve</button>
<button type="submit" id="deny">Deny</button>
<input type="hidden" name="decision" value="deny">
</form>
${input.devWallet ? DEV_WALLET_SECTION : ''}
<p id="status" role="status"></p>
<script nonce="${input.cspNonce}">(function () {${SIGN_IN_SCRIPT}${WALLET_SCRIPT(
    input.devWallet
      ? 'No Solana wallet was found in this browser: use the development wallet below.'
      : 'No Solana wallet was found in this browser.',
  )}${input.devWallet ? DEV_WALLET_SCRIPT : ''}})();</script>`;
  return layout(`Authorize ${input.clientName}`, body, input.cspNonce);
}

export function errorPage(title: string, detail: string, cspNonce: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p>`, cspNonce);
}

export function demoCallbackPage(input: {
  code?: string;
  state?: string;
  error?: string;
  tokenUrl: string;
  redirectUri: string;
  cspNonce: string;
}): string {
  if (input.error || !input.code) {
    return errorPage('Authorization did not complete', input.error ?? 'no code was returned', input.cspNonce);
  }
  const curl = [
    `curl -u "$CLIENT_ID:$CLIENT_SECRET" ${input.tokenUrl}`,
    '-d grant_type=authorization_code',
    `-d code=${input.code}`,
    `--data-urlencode redirect_uri=${input.redirectUri}`,
    '-d code_verifier=$CODE_VERIFIER',
  ].join(' \\\n  ');
  const body = `<h1>Authorization code received</h1>
<p>Exchange it within a minute (it works once):</p><pre><code>${escapeHtml(curl)}</code></pre>
${input.state ? `<p class="muted">state: <code>${escapeHtml(input.state)}</code></p>` : ''}`;
  return layout('Authorization code', body, input.cspNonce);
}
