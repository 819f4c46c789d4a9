import { ConfigError, loadConfig } from './config.js';
import { runServer } from './run-server.js';

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
