// Reads OPDS 2.0 feeds and Divina manifests from a MangaCircus on loopback with Readium's
// r2-opds-js and r2-shared-js (the models Thorium loads them into), for
// tests/reader/komga/test_opds2.py (tests/support/opds_clients.py installs them and sets NODE_PATH).
// Standard input: {"base": "http://127.0.0.1:PORT", "paths": [...], "headers": {...}}.
// Standard output: {path: {"status": n, "type": "...", "r2": the document as the model holds it}}:
// an application/opds+json answer deserialised as an OPDSFeed, an application/divina+json one as
// a Publication, then serialised again, so what the model did not understand is gone.
'use strict';
const { TaJsonDeserialize, TaJsonSerialize } = require('r2-lcp-js/dist/es8-es2017/src/serializable');
const { initGlobalConverters_GENERIC, initGlobalConverters_OPDS } = require('r2-opds-js/dist/es8-es2017/src/opds/init-globals');
const { initGlobalConverters_SHARED } = require('r2-shared-js/dist/es8-es2017/src/init-globals');
const { OPDSFeed } = require('r2-opds-js/dist/es8-es2017/src/opds/opds2/opds2');
const { Publication } = require('r2-shared-js/dist/es8-es2017/src/models/publication');

initGlobalConverters_SHARED();
initGlobalConverters_GENERIC();
initGlobalConverters_OPDS();

const MODELS = { 'application/opds+json': OPDSFeed, 'application/divina+json': Publication };

async function read(base, path, headers) {
  const response = await fetch(new URL(path, base), { headers, redirect: 'manual' });
  const body = await response.text();
  const type = (response.headers.get('content-type') || '').split(';')[0];
  if (response.status !== 200) return { status: response.status, type, body: body.slice(0, 300) };
  const model = MODELS[type];
  if (!model) throw new Error(`${path}: not an OPDS 2 feed nor a Divina manifest: ${type}`);
  return { status: response.status, type, r2: TaJsonSerialize(TaJsonDeserialize(JSON.parse(body), model)) };
}

async function main() {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const { base, paths, headers } = JSON.parse(input);
  const host = new URL(base).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) throw new Error(`not a loopback address: ${base}`);
  const out = {};
  for (const path of paths) out[path] = await read(base, path, headers || {});
  process.stdout.write(JSON.stringify(out));
}

main().catch((error) => { console.error(error && error.stack || error); process.exit(1); });
