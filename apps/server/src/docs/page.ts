/** The reference page's own script: reads its settings from the page, starts the UI. */
export const INIT_SCRIPT = `(function () {
  var root = document.getElementById('reference');
  var settings = root.dataset;
  window.Scalar.createApiReference(root, {
    url: settings.documentUrl,
    // Try-it calls this origin: the document's server is "/".
    baseServerURL: window.location.origin,
    // Nothing leaves this origin: no web fonts, telemetry, AI agent or request proxy.
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: 'never',
    showOperationId: true,
    documentDownloadType: 'json',
    persistAuth: false,
    // Interface A's key by default; interface B's operations take the oauth2 scheme (pick it in
    // the Authentication selector and paste an access token, or run the flow). The flow uses PKCE
    // S256, which the server requires (Scalar's own setting: in the document it would clash with
    // Redoc's x-usePkce). On a localnet it names the demo client, whose redirect URIs include this
    // page; its secret is typed in.
    authentication: {
      preferredSecurityScheme: settings.preferredScheme,
      securitySchemes: {
        oauth2: {
          flows: {
            authorizationCode: Object.assign(
              { 'x-usePkce': 'SHA-256', selectedScopes: ['read', 'write'] },
              settings.oauthClientId ? { 'x-scalar-client-id': settings.oauthClientId } : {},
            ),
          },
        },
      },
    },
    metaData: { title: document.title },
  });
})();
`;

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * The shell of the reference page. It holds no inline script or style, so its CSP can forbid both
 * for scripts; settings travel in data attributes.
 */
export function docsPage(options: {
  specUrl: string;
  bundleUrl?: string;
  initUrl: string;
  oauthClientId?: string;
}): string {
  const spec = escapeHtml(options.specUrl);
  const client = options.oauthClientId ? ` data-oauth-client-id="${escapeHtml(options.oauthClientId)}"` : '';
  const ui = options.bundleUrl
    ? `<div id="reference" data-document-url="${spec}" data-preferred-scheme="apiKey"${client}></div>
<script src="${escapeHtml(options.bundleUrl)}"></script>
<script src="${escapeHtml(options.initUrl)}"></script>`
    : `<p>The interactive reference is not bundled with this runtime.</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Token Actions API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<noscript>The reference needs JavaScript. The OpenAPI document is at <a href="${spec}">${spec}</a>.</noscript>
${ui}
</body>
</html>
`;
}
