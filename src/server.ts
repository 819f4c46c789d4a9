import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleBuild } from './build-stamp.js';

// Compiled, this runs from dist/: a build older than the sources beside it says so before anything is loaded.
const here = path.dirname(fileURLToPath(import.meta.url));
const stale = path.basename(here) === 'dist' ? staleBuild(here) : null;
if (stale) {
  console.error(stale);
  process.exit(1);
}

// Traces, when an OTLP endpoint is configured: started before the modules it instruments are loaded.
await import('./telemetry/tracing.js');
const { ConfigError, loadConfig } = await import('./config.js');
const { runServer } = await import('./run-server.js');
try {
  await runServer(loadConfig());
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  console.error('The service could not start:', err instanceof Error ? err.message : err);
  process.exit(1);
}
