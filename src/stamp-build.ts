/** The last step of `npm run build`: records which sources `dist/` was compiled from (build-stamp.ts). */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeStamp } from './build-stamp.js';

writeStamp(path.dirname(path.dirname(fileURLToPath(import.meta.url))));
