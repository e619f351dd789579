// Reads OPDS feeds from a MangaCircus on loopback with two real client libraries, for
// tests/reader/komga/test_opds_clients.py (tests/support/opds_clients.py installs them and sets
// NODE_PATH). Standard input: {"base": "http://127.0.0.1:PORT", "paths": [...], "headers": {...}}.
// Standard output: {path: {"status": n, "r2": OPDS 2 JSON, "parser": {...}}}.
//  - r2: Readium's r2-opds-js, deserialised and converted to OPDS 2 exactly as Thorium does it;
//  - parser: opds-feed-parser's feed object, with each object's class name as "_class" and, per
//    entry, "pse": the type and pse:count of its Page Streaming links (from the parser's
//    "unparsed" XML of the entry, which is left out).
'use strict';
const { DOMParser } = require('@xmldom/xmldom');
const { XML } = require('r2-utils-js/dist/es8-es2017/src/_utils/xml-js-mapper');
const { TaJsonSerialize } = require('r2-lcp-js/dist/es8-es2017/src/serializable');
const { initGlobalConverters_GENERIC, initGlobalConverters_OPDS } = require('r2-opds-js/dist/es8-es2017/src/opds/init-globals');
const { OPDS } = require('r2-opds-js/dist/es8-es2017/src/opds/opds1/opds');
const { convertOpds1ToOpds2 } = require('r2-opds-js/dist/es8-es2017/src/opds/converter');
const FeedParser = require('opds-feed-parser').default;

const PSE = 'http://vaemendis.net/opds-pse/stream';

initGlobalConverters_GENERIC();
initGlobalConverters_OPDS();

function streams(entry) {
  const links = (entry.unparsed && entry.unparsed.link) || [];
  return links.filter((l) => l.$ && l.$.rel && l.$.rel.value === PSE).map((l) => ({
    type: l.$.type ? l.$.type.value : null,
    count: l.$['pse:count'] ? Number(l.$['pse:count'].value) : null,
  }));
}

function plain(value) {
  if (Array.isArray(value)) return value.map(plain);
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  if (value.constructor && value.constructor !== Object) out._class = value.constructor.name;
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = plain(item);
  return out;
}

async function read(base, path, headers) {
  const response = await fetch(new URL(path, base), { headers, redirect: 'manual' });
  const body = await response.text();
  if (response.status !== 200) return { status: response.status, body: body.slice(0, 300) };
  const dom = new DOMParser().parseFromString(body, 'application/xml');
  const r2 = TaJsonSerialize(convertOpds1ToOpds2(XML.deserialize(dom, OPDS)));
  const feed = await new FeedParser().parse(body);
  for (const entry of feed.entries || []) {
    entry.pse = streams(entry);
    delete entry.unparsed;
  }
  delete feed.unparsed;
  const parser = plain(feed);
  return { status: response.status, r2, parser };
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
