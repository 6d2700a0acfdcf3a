import type { FastifyRequest } from 'fastify';

/**
 * The origin of every link Podium sends out (e-mails, the OpenID Connect redirect URI, the
 * return to the web app). A request's Host, X-Forwarded-Host and X-Forwarded-Proto are chosen
 * by whoever sends it, so they never decide a link on their own: a link uses the request's
 * origin only when that origin is one of the configured ones, and otherwise the default one.
 */
export type SiteOrigin = (request: FastifyRequest) => string;

export type OriginConfig = {
  host: string;
  port: number;
  publicOrigin: string | undefined;
  linkOrigins: readonly string[];
};

const ANY_ADDRESS = new Set(['', '0.0.0.0', '::', '[::]']);
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

/** `scheme://host[:port]` of a URL, or undefined when it is not an http(s) URL. */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    return parsed.origin;
  } catch {
    return undefined;
  }
}

/**
 * Checks an origin given in the configuration (PUBLIC_ORIGIN, LINK_ORIGINS): http(s), a host,
 * nothing after it. Throws, so that a typo stops the start instead of mailing broken links.
 */
export function configuredOrigin(name: string, value: string): string {
  const origin = originOf(value);
  const rest = origin ? value.slice(origin.length).replace(/\/$/, '') : value;
  if (!origin || rest !== '') {
    throw new Error(`${name}: expected an origin such as https://podium.example.ro, got ${value}`);
  }
  return origin;
}

/**
 * The address Podium listens on as an origin: `http://localhost:PORT` when it listens on every
 * address (0.0.0.0 or ::), else `http://HOST:PORT`.
 */
export function listenOrigin(host: string, port: number): string {
  const bareIpv6 = host.includes(':') && !host.startsWith('[');
  const name = ANY_ADDRESS.has(host) ? 'localhost' : bareIpv6 ? `[${host}]` : host;
  return new URL(`http://${name}:${port}`).origin;
}

/** The origin links use when a request did not come through a configured one. */
export const defaultOrigin = (config: OriginConfig) =>
  config.publicOrigin ?? listenOrigin(config.host, config.port);

/**
 * The origin for links made while answering `request`: the request's own origin when it is
 * PUBLIC_ORIGIN or one of LINK_ORIGINS (with TRUST_PROXY, as the proxy reports it), otherwise
 * the default origin. The answer is always a configured string, never text from the request.
 */
export function siteOrigin(config: OriginConfig): SiteOrigin {
  // Read on each call: the configuration object is the one source, also when a test harness
  // sets PUBLIC_ORIGIN once it knows its port.
  return (request) => {
    const fallback = defaultOrigin(config);
    if (config.linkOrigins.length === 0) return fallback;
    const own = originOf(`${request.protocol}://${request.host}`);
    if (own && (own === fallback || config.linkOrigins.includes(own))) return own;
    return fallback;
  };
}

/** The start-up warning when links would point at this machine only, or undefined. */
export function originWarning(config: OriginConfig): string | undefined {
  if (config.publicOrigin) return undefined;
  const host = config.host.trim();
  if (LOOPBACK.test(host)) return undefined;
  return (
    `PUBLIC_ORIGIN is not set: links in e-mails point to ${listenOrigin(config.host, config.port)}, ` +
    'which works only on this machine. Set PUBLIC_ORIGIN to the address people open Podium at.'
  );
}
