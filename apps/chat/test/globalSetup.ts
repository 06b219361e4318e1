import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The browser test needs Debian's chromium at /usr/bin/chromium: scripts/ensure-chromium.sh
 * installs it with apt when it is missing and we are root (as on CI), and fails loudly otherwise.
 */
export default function setup(): void {
  const script = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'scripts', 'ensure-chromium.sh');
  execFileSync('bash', [script], { stdio: 'inherit', timeout: 15 * 60_000 });
}
