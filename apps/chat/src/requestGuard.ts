import type { IncomingMessage } from 'node:http';

/**
 * Which requests the chat answers: those addressed to it by a name it knows (`Host`) and, when a
 * browser says where a request comes from (`Origin`), from its own page. A page on another site
 * cannot start runs through a visitor's browser (cross-site requests), and a DNS name rebound to
 * 127.0.0.1 cannot reach it either (its `Host` is that name). (The same check as apps/web-demo.)
 */
export interface RequestGuard {
  /** Why the request is refused, or `undefined` when it may go on. */
  problem(req: IncomingMessage): string | undefined;
}

/**
 * `allowedHosts`: `host:port` names the server answers to (lower case); the port it listens on is
 * known only once it listens, so they are read at each request.
 */
export function requestGuard(allowedHosts: () => ReadonlySet<string>): RequestGuard {
  return {
    problem(req) {
      const allowed = allowedHosts();
      const host = req.headers.host ?? '';
      if (!allowed.has(hostPort(`http://${host}`))) return `Host ${JSON.stringify(host)} is not one this server answers to`;
      const origin = req.headers.origin;
      if (origin !== undefined && !allowed.has(hostPort(origin))) return `Origin ${JSON.stringify(origin)} is not this server's own`;
      // Browsers that do not send Origin on a cross-site GET still say where it comes from.
      if (req.headers['sec-fetch-site'] === 'cross-site') return 'cross-site requests are not answered';
      return undefined;
    },
  };
}

/**
 * `host:port` (lower case, the port always written) of an http(s) URL or origin; `''` for anything
 * else (a `null` origin, a path in the Host header), which no allowed host matches.
 */
export function hostPort(urlOrOrigin: string): string {
  try {
    const url = new URL(urlOrOrigin);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.username !== '' || url.search !== '') return '';
    return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`.toLowerCase();
  } catch {
    return '';
  }
}
