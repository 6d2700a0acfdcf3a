import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { configuredOrigin, listenOrigin, originWarning, siteOrigin } from './origin.js';

describe('link origins', () => {
  it('turns the listen address into an origin', () => {
    expect(listenOrigin('0.0.0.0', 3000)).toBe('http://localhost:3000');
    expect(listenOrigin('::', 3000)).toBe('http://localhost:3000');
    expect(listenOrigin('127.0.0.1', 8080)).toBe('http://127.0.0.1:8080');
    expect(listenOrigin('::1', 3000)).toBe('http://[::1]:3000');
    expect(listenOrigin('podium.lan', 80)).toBe('http://podium.lan');
  });

  it('warns only when links would work on this machine alone', () => {
    const warning = (env: NodeJS.ProcessEnv) => originWarning(loadConfig(env));
    expect(warning({ HOST: '0.0.0.0', PORT: '3000' })).toContain('http://localhost:3000');
    expect(warning({ HOST: '10.1.2.3' })).toContain('PUBLIC_ORIGIN is not set');
    expect(warning({ HOST: '127.0.0.1' })).toBeUndefined();
    expect(warning({ HOST: 'localhost' })).toBeUndefined();
    expect(warning({ HOST: '0.0.0.0', PUBLIC_ORIGIN: 'https://podium.example.ro' })).toBe(
      undefined,
    );
  });

  it('refuses a configured origin with a path or another scheme', () => {
    expect(configuredOrigin('X', 'https://podium.example.ro/')).toBe('https://podium.example.ro');
    expect(configuredOrigin('X', 'HTTP://Podium.LAN:3000')).toBe('http://podium.lan:3000');
    for (const bad of ['podium.lan', 'ftp://podium.lan', 'https://podium.ro/app', 'https://']) {
      expect(() => configuredOrigin('LINK_ORIGINS', bad)).toThrow(/LINK_ORIGINS/);
    }
    expect(() => loadConfig({ LINK_ORIGINS: 'http://a.ro, nope' })).toThrow(/LINK_ORIGINS/);
  });

  it('reads the configuration when asked, so a PUBLIC_ORIGIN set after start counts', () => {
    const config = loadConfig({ HOST: '0.0.0.0', PORT: '3000' });
    const originFor = siteOrigin(config);
    const request = { protocol: 'http', host: 'evil.example' } as FastifyRequest;
    expect(originFor(request)).toBe('http://localhost:3000');
    config.publicOrigin = 'http://127.0.0.1:4321';
    expect(originFor(request)).toBe('http://127.0.0.1:4321');
  });
});
