import type { FastifySchema } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, type TestApp } from './app.js';
import { ResponseCheckError } from './response-check.js';

// Routes of this test only, whose answers agree or disagree with what they document.
const ROUTES = '/api/v1/response-check';
const Counted = z.object({ n: z.number().int() });

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    checkResponses: true,
    prepare(app) {
      // Untyped, so a handler may answer what the schema does not say.
      const schema: FastifySchema = { response: { 200: Counted } };
      app.get(`${ROUTES}/truthful`, { schema }, async () => ({ n: 1 }));
      // A string is sent as it is, past the serializer that would have refused it.
      app.get(`${ROUTES}/wrong-body`, { schema }, async (_, reply) =>
        reply.type('application/json').send('{"n":"one"}'),
      );
      app.get(`${ROUTES}/wrong-status`, { schema }, async (_, reply) =>
        reply.code(202).send({ n: 1 }),
      );
    },
  });
});
afterAll(async () => {
  await t.close();
});

describe('buildTestApp({ checkResponses })', () => {
  it('lets through an answer its description promises, and the real routes’ answers', async () => {
    expect((await t.app.inject({ url: `${ROUTES}/truthful` })).json()).toEqual({ n: 1 });
    expect((await t.app.inject({ url: '/api/v1/health' })).statusCode).toBe(200);
    const user = await t.createUser();
    const headers = await t.login(user.email, user.password);
    const whoami = await t.app.inject({ url: '/api/v1/auth-service/auth/whoami', headers });
    expect(whoami.statusCode).toBe(200);
  });

  it('fails the call whose body does not match its description', async () => {
    const call = t.app.inject({ url: `${ROUTES}/wrong-body` });
    await expect(call).rejects.toThrow(ResponseCheckError);
    await expect(call).rejects.toThrow(
      `GET ${ROUTES}/wrong-body answered 200 with a body that does not match its description: /n must be integer`,
    );
  });

  it('fails the call whose status its description does not document', async () => {
    await expect(
      t.app.inject({ method: 'GET', url: `${ROUTES}/wrong-status?x=1` }),
    ).rejects.toThrow(
      `GET ${ROUTES}/wrong-status answered 202, a status its description does not document (it documents 200, 400, default)`,
    );
  });
});
