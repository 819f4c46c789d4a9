/**
 * Code samples for each operation of the reference, as `x-codeSamples` (the extension Redoc, Scalar and ReadMe show;
 * /docs shows them under each operation): curl, JavaScript (fetch), Python (requests) and Java (java.net.http), each a
 * complete request with the credential the operation takes, its path parameters filled in, and for a list a page size.
 */
import { exampleOf, resolve } from './schema-example.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document: untyped JSON, walked by key
type Json = Record<string, any>;

/** Values for the path parameters: the demo's first post and job, its company, a member with a public profile, and a placeholder for an event's id (events' ids are made when the data is). */
const PATH_VALUES: Record<string, string> = {
  postId: '1',
  jobId: '1',
  eventId: 'EVENT_ID',
  companyId: 'acme-labs',
  companyPermalink: 'acme-labs',
  handle: 'member-01',
  ticketId: '1',
  sessionId: '1',
  faqId: '1',
};

interface Request {
  method: string;
  url: string;
  headers: [string, string][];
  form: [string, string][] | null;
  json: string | null;
}

/** A body's example: its own, else one from its schema with only the required fields (a write's least). */
function bodyExample(schema: Json | undefined, own: unknown, schemas: Json): string {
  if (own !== undefined) return JSON.stringify(own);
  const resolved = resolve(schema, schemas);
  if (!resolved) return '{}';
  const example = exampleOf(resolved, schemas) as Json;
  const required = new Set((resolved.required ?? []) as string[]);
  return JSON.stringify(
    typeof example === 'object' && example !== null && required.size > 0
      ? Object.fromEntries(Object.entries(example).filter(([name]) => required.has(name)))
      : example,
  );
}

function requestOf(base: string, path: string, method: string, operation: Json, schemas: Json): Request {
  const url = new URL(
    base + path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(PATH_VALUES[name] ?? name)),
  );
  const query = ((operation.parameters ?? []) as Json[]).filter((p) => p.in === 'query');
  if (method === 'get' && query.some((p) => p.name === 'pageSize')) url.searchParams.set('pageSize', '5');
  for (const p of query.filter((q) => q.required))
    url.searchParams.set(p.name, String(PATH_VALUES[p.name] ?? exampleOf(p.schema ?? {}, schemas)));
  const security = (operation.security ?? []) as Json[];
  const headers: [string, string][] = [];
  if (security.some((s) => 'apiKey' in s)) headers.push(['X-SVC-API-Key', 'svck_…']);
  else if (security.some((s) => 'oauth2' in s)) headers.push(['Authorization', 'Bearer ACCESS_TOKEN']);
  const content = (operation.requestBody?.content ?? {}) as Json;
  const multipart = content['multipart/form-data'];
  // A write's JSON goes in the form's `request` part, as every multipart write of the API takes it.
  const part = multipart ? resolve(multipart.schema, schemas)?.properties?.request : undefined;
  const form: [string, string][] | null = multipart
    ? [['request', path === '/api/v1/posts' ? '{"text":"Hello from the API"}' : bodyExample(part, undefined, schemas)]]
    : null;
  const json = content['application/json']
    ? bodyExample(content['application/json'].schema, content['application/json'].example, schemas)
    : null;
  if (json) headers.push(['Content-Type', 'application/json']);
  return { method: method.toUpperCase(), url: url.toString(), headers, form, json };
}

const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

function curl(r: Request): string {
  const parts = [
    `curl${r.method === 'GET' ? '' : ` -X ${r.method}`} ${quote(r.url)}`,
    ...r.headers.map(([k, v]) => `-H ${quote(`${k}: ${v}`)}`),
  ];
  for (const [name, value] of r.form ?? []) parts.push(`-F ${quote(`${name}=${value};type=application/json`)}`);
  if (r.json) parts.push(`-d ${quote(r.json)}`);
  return parts.join(' \\\n  ');
}

function javascript(r: Request): string {
  const headers = r.headers.length
    ? `headers: { ${r.headers.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')} }`
    : '';
  const lines = r.form
    ? [
        'const body = new FormData();',
        ...r.form.map(
          ([n, v]) =>
            `body.append(${JSON.stringify(n)}, new Blob([${JSON.stringify(v)}], { type: 'application/json' }));`,
        ),
      ]
    : [];
  const options = [
    r.method === 'GET' ? '' : `method: '${r.method}'`,
    headers,
    r.form ? 'body' : r.json ? `body: JSON.stringify(${r.json})` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return [
    ...lines,
    `const response = await fetch(${JSON.stringify(r.url)}${options ? `, { ${options} }` : ''});`,
    'const data = response.status === 204 ? null : await response.json();',
  ].join('\n');
}

function python(r: Request): string {
  const args = [JSON.stringify(r.url)];
  if (r.headers.length)
    args.push(`headers={${r.headers.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')}}`);
  if (r.form)
    args.push(
      `files={${r.form.map(([n, v]) => `${JSON.stringify(n)}: (None, ${JSON.stringify(v)}, "application/json")`).join(', ')}}`,
    );
  if (r.json)
    args.push(
      `json=${r.json
        .replace(/\btrue\b/g, 'True')
        .replace(/\bfalse\b/g, 'False')
        .replace(/\bnull\b/g, 'None')}`,
    );
  return [
    'import requests',
    '',
    `response = requests.${r.method.toLowerCase()}(${args.join(', ')})`,
    'response.raise_for_status()',
  ].join('\n');
}

function java(r: Request): string {
  const lines = ['HttpClient client = HttpClient.newHttpClient();'];
  let body = 'HttpRequest.BodyPublishers.noBody()';
  if (r.form) {
    lines.push('String boundary = "----svc" + System.nanoTime();');
    const parts = r.form.map(
      ([n, v]) =>
        `"--" + boundary + "\\r\\nContent-Disposition: form-data; name=\\"${n}\\"\\r\\nContent-Type: application/json\\r\\n\\r\\n" + ${JSON.stringify(v)} + "\\r\\n"`,
    );
    lines.push(`String form = ${parts.join(' + ')} + "--" + boundary + "--\\r\\n";`);
    body = 'HttpRequest.BodyPublishers.ofString(form)';
  } else if (r.json) body = `HttpRequest.BodyPublishers.ofString(${JSON.stringify(r.json)})`;
  lines.push(`HttpRequest request = HttpRequest.newBuilder(URI.create(${JSON.stringify(r.url)}))`);
  for (const [k, v] of r.headers) lines.push(`    .header(${JSON.stringify(k)}, ${JSON.stringify(v)})`);
  if (r.form) lines.push('    .header("Content-Type", "multipart/form-data; boundary=" + boundary)');
  lines.push(
    `    .method("${r.method}", ${body})`,
    '    .build();',
    'HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());',
  );
  return lines.join('\n');
}

/** Adds `x-codeSamples` to every operation under /api/v1 of `doc`, for the first server's address. */
export function addCodeSamples(doc: Json): void {
  const base = String(doc.servers?.[0]?.url ?? 'https://api.example.com');
  const schemas = (doc.components?.schemas ?? {}) as Json;
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Json)) {
    if (!path.startsWith('/api/v1/')) continue;
    for (const [method, operation] of Object.entries(item as Json)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const r = requestOf(base, path, method, operation as Json, schemas);
      (operation as Json)['x-codeSamples'] = [
        { lang: 'Shell', label: 'curl', source: curl(r) },
        { lang: 'JavaScript', label: 'JavaScript', source: javascript(r) },
        { lang: 'Python', label: 'Python', source: python(r) },
        { lang: 'Java', label: 'Java', source: java(r) },
      ];
    }
  }
}
