/**
 * A self-contained reference page rendered in the browser from the OpenAPI document: no CDN,
 * so it works on machines with no internet access.
 */
export function docsPage(specUrl: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Token Actions API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2330;background:#fafbfc}
header{background:#141a26;color:#fff;padding:18px 28px}header h1{margin:0;font-size:20px}
main{max-width:980px;margin:0 auto;padding:16px 28px}
.op{background:#fff;border:1px solid #e3e6ec;border-radius:8px;margin:12px 0;padding:12px 16px}
.m{display:inline-block;min-width:52px;font-weight:700;font-family:monospace;text-transform:uppercase}
.get{color:#0a7b3e}.post{color:#1f5fd6}code{background:#f0f2f5;padding:1px 5px;border-radius:4px}
pre{background:#f5f6f8;padding:8px;border-radius:6px;overflow:auto;font-size:12px}
.tag{font-size:12px;color:#5b6472;margin-left:8px}
</style></head>
<body><header><h1>Token Actions API</h1><div id="ver"></div></header>
<main><p>Interface A (<code>/v1/api/…</code>): <code>Authorization: Bearer &lt;api key&gt;</code>; its POST routes accept an
<code>Idempotency-Key</code> header. Interface B (swaps, webhooks): an OAuth 2.0 access token from
<code>/oauth</code> (see <a href="/.well-known/oauth-authorization-server">its metadata</a>), with <code>rateLimit</code> in every answer. Amounts are decimal strings. Raw document: <a href="${specUrl}">${specUrl}</a>.</p>
<div id="ops">Loading…</div></main>
<script>
fetch(${JSON.stringify(specUrl)}).then(r=>r.json()).then(doc=>{
  document.getElementById('ver').textContent='Version '+doc.info.version;
  const esc=s=>String(s).replace(/[&<>"]/g,ch=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[ch]));
  const ref=s=>s&&s.$ref?doc.components.schemas[s.$ref.split('/').pop()]:s;
  let html='';
  for(const [path,item] of Object.entries(doc.paths)){
    for(const [method,op] of Object.entries(item)){
      const body=op.requestBody&&ref(op.requestBody.content['application/json'].schema);
      const ok=op.responses&&op.responses['200']&&op.responses['200'].content&&ref(op.responses['200'].content['application/json'].schema);
      html+='<div class="op"><span class="m '+method+'">'+method+'</span> <code>'+esc(path)+'</code><span class="tag">'+esc((op.tags||[]).join(', '))+'</span><div>'+esc(op.summary||'')+'</div>'
        +(body?'<details><summary>Request body</summary><pre>'+esc(JSON.stringify(body,null,2))+'</pre></details>':'')
        +(ok?'<details><summary>200 response</summary><pre>'+esc(JSON.stringify(ok,null,2))+'</pre></details>':'')
        +'<div style="font-size:12px;color:#5b6472">Responses: '+esc(Object.keys(op.responses||{}).join(', '))+'</div></div>';
    }
  }
  document.getElementById('ops').innerHTML=html;
});
</script></body></html>`;
}
