// A tiny static server for the demo page (and the browser test): this directory at /, the built
// package (target/wasm/pkg) at /pkg/, the exported known-answer data at /vectors.json. Binds
// 127.0.0.1 only.  Usage: node examples/web/serve.mjs [PORT]   (after `cargo xtask wasm build`)
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.json': 'application/json', '.css': 'text/css', '.png': 'image/png' };

export function serve({ port = 0, pkg = path.join(root, 'target/wasm/pkg'),
  vectors = path.join(root, 'target/wasm/vectors.json') } = {}) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    let file;
    if (url.pathname === '/vectors.json') file = vectors;
    else if (url.pathname.startsWith('/pkg/')) file = path.join(pkg, url.pathname.slice(5));
    else file = path.join(here, url.pathname === '/' ? 'index.html' : url.pathname.slice(1));
    const base = url.pathname.startsWith('/pkg/') ? pkg : here;
    if (file !== vectors && !path.resolve(file).startsWith(path.resolve(base))) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await serve({ port: Number(process.argv[2] || 8080) });
  console.log(`http://127.0.0.1:${server.address().port}/`);
}
