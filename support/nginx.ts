import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where this machine's nginx is (Debian's nginx-light or nginx), or null. */
export const NGINX_BINARY =
  ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p)) ?? null;

/**
 * nginx with the repository's site and upstream files (deploy/nginx/), listening on `port` and passing to the two
 * `instances`, everything it keeps under `dir`: what the drills put in front of the service. `command` starts it;
 * append `-s stop` to stop it.
 */
export function shippedNginx(dir: string, port: number, instances: [number, number]) {
  fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
  const site = fs
    .readFileSync(path.join(ROOT, 'deploy/nginx/svc-open-api.conf'), 'utf8')
    .replace(/listen 80;/, `listen 127.0.0.1:${port};`);
  const upstream = fs
    .readFileSync(path.join(ROOT, 'deploy/nginx/svc-open-api-upstream.conf'), 'utf8')
    .replace('127.0.0.1:3001', `127.0.0.1:${instances[0]}`)
    .replace('127.0.0.1:3002', `127.0.0.1:${instances[1]}`);
  fs.writeFileSync(path.join(dir, 'site.conf'), site);
  fs.writeFileSync(path.join(dir, 'upstream.conf'), upstream);
  const asRoot = process.getuid?.() === 0;
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `${asRoot ? 'user root;\n' : ''}worker_processes 2;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  include ${dir}/upstream.conf;
  include ${dir}/site.conf;
}
`,
  );
  const command = `${NGINX_BINARY ?? 'nginx'} -p ${dir}/ -e ${dir}/logs/error.log -c ${dir}/nginx.conf`;
  return {
    command,
    start: () => execFileSync('bash', ['-c', command], { stdio: 'inherit' }),
    stop: () => spawnSync('bash', ['-c', `${command} -s stop`], { stdio: 'ignore' }),
  };
}
