import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Every answer's security headers: the content policy the web app needs and nothing more.
 * The headers do not depend on the request, so the middleware is built once; the Fastify
 * wrapper rebuilt it on every request, which showed on the exam-day answer path.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  /** The error-tracing service's origin, which the web app sends to when tracing is on. */
  tracingOrigin?: string,
): void {
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // MUI and emotion inject <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...(tracingOrigin ? [tracingOrigin] : [])],
        // The answer's PDF pages are shown in the browser's viewer from a blob: URL.
        frameSrc: ["'self'", 'blob:'],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        // Schools often run Podium on plain HTTP inside their network; upgrading every
        // request to HTTPS there would break the app. Behind TLS, HSTS does the job.
        upgradeInsecureRequests: null,
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
  });
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (err) => done(err instanceof Error ? err : undefined)),
  );
}
