/* global fetch */
// The smoke test's API calls against the running image (Node.js's fetch, so cookies need no jar):
//   node image-smoke-api.mjs manager BASE_URL            registers the first account (the administrator),
//                                                        signs in, and reads the session back
//   node image-smoke-api.mjs translator BASE_URL API_KEY reads the project that key belongs to, and serves
//                                                        a page of a site on this host in French (SEO mode:
//                                                        the page client's built renderer, dist/render.js)
import { createServer, request } from 'node:http';

const [, , service, base, apiKey] = process.argv;

async function call(path, init = {}) {
  const answer = await fetch(`${base}${path}`, init);
  const body = await answer.json().catch(() => null);
  if (!answer.ok)
    throw new Error(`${init.method ?? 'GET'} ${path}: ${answer.status} ${JSON.stringify(body)}`);
  return { answer, body };
}

async function manager() {
  const { answer, body } = await call('/api/v1/csrf-token');
  let cookie = answer.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const headers = { 'content-type': 'application/json', 'x-csrf-token': body.data.csrfToken };
  const account = { uid: 'smoke', givenName: 'Smoke', sn: 'Test', mail: 'smoke@example.org' };
  const password = 'a long smoke-test password';
  await call('/api/v1/auth/register', {
    method: 'POST',
    headers: { ...headers, cookie },
    body: JSON.stringify({ ...account, userPassword: password }),
  });
  const login = await call('/api/v1/auth/login', {
    method: 'POST',
    headers: { ...headers, cookie },
    body: JSON.stringify({ username: account.uid, password }),
  });
  cookie = login.answer.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const session = await call('/api/v1/session', { headers: { cookie } });
  if (session.body.data.user !== 'smoke' || session.body.data.isAdmin !== true) {
    throw new Error(`unexpected session: ${JSON.stringify(session.body)}`);
  }
  console.log('manager: registered the first account, signed in, GET /api/v1/session → smoke (admin)');
}

async function translator() {
  const { body } = await call('/api/project', { headers: { 'x-api-key': apiKey } });
  const project = body.data ?? body;
  if (project.name !== 'smoke') throw new Error(`unexpected project: ${JSON.stringify(body)}`);
  console.log(`translator: GET /api/project with the new key → project ${project.id} (${project.name})`);

  const site = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      '<!doctype html><html lang="en"><head><title>Home</title></head><body><h1>Hello</h1></body></html>',
    );
  });
  await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
  const json = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  await call('/api/project/settings', {
    method: 'PATCH',
    headers: json,
    body: JSON.stringify({
      settings: { languages: ['fr'], seoOrigin: `http://127.0.0.1:${site.address().port}` },
    }),
  });
  await call('/api/textnodes', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ keys: [{ key: 'Hello' }], url: 'https://smoke.test/' }),
  });
  const { body: list } = await call('/api/translations/all', { headers: json });
  await call('/api/textnodes/status', {
    method: 'PATCH',
    headers: json,
    body: JSON.stringify({ ids: list.rows.map((row) => row.id), status: 'approved' }),
  });
  await call('/api/translations', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ lang: 'fr', translations: [{ key: 'Hello', context: '', value: 'Bonjour' }] }),
  });
  // As the site's nginx asks for it: with the site's Host (the translator serves a site's pages for no other).
  const page = await new Promise((resolve, reject) => {
    const headers = { host: `127.0.0.1:${site.address().port}` };
    request(`${base}/seo/${project.id}/fr/`, { headers }, (response) => {
      let html = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (html += chunk));
      response.on('end', () => resolve({ status: response.statusCode, html }));
    })
      .on('error', reject)
      .end();
  });
  site.close();
  if (page.status !== 200 || !page.html.includes('<h1>Bonjour</h1>') || !page.html.includes('lang="fr"'))
    throw new Error(`SEO page: ${page.status} ${page.html.slice(0, 300)}`);
  console.log(`translator: GET /seo/${project.id}/fr/ → the site's page in French`);
}

await (service === 'manager' ? manager() : translator());
