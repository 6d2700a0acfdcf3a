import Fastify from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError, fieldError, registerErrorHandler } from './errors.js';

async function app() {
  const a = Fastify({ logger: false });
  a.setValidatorCompiler(validatorCompiler);
  a.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(a);
  const r = a.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/v',
    {
      schema: {
        body: z.object({
          name: z.string({ error: 'required' }).min(3, 'too_short'),
          n: z.number().positive('not_positive'),
        }),
      },
    },
    async () => ({ ok: true }),
  );
  r.get('/app', async () => {
    throw new AppError('TEST_ALREADY_EXISTS', 'dup', { grades: ['test_grade_duplicate'] });
  });
  r.get('/field', async () => {
    throw fieldError({ teacherCode: ['code_exists'] });
  });
  r.get('/boom', async () => {
    throw new Error('secret internals: password=hunter2');
  });
  await a.ready();
  return a;
}

describe('error handler', () => {
  it('renders zod failures as VALIDATION_FAILED with field codes and paths', async () => {
    const a = await app();
    const res = await a.inject({ method: 'POST', url: '/v', payload: { name: 'ab', n: -1 } });
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toEqual(
      expect.arrayContaining([
        { code: 'too_short', path: ['name'] },
        { code: 'not_positive', path: ['n'] },
      ]),
    );
    const missing = await a.inject({ method: 'POST', url: '/v', payload: {} });
    expect(missing.json().error.details).toEqual(
      expect.arrayContaining([{ code: 'required', path: ['name'] }]),
    );
  });

  it('tells a value of the wrong type (invalid) from an absent one (required)', async () => {
    const a = await app();
    const res = await a.inject({ method: 'POST', url: '/v', payload: { name: 'abc', n: 'x' } });
    expect(res.json().error.details).toEqual([{ code: 'invalid', path: ['n'] }]);
    const absent = await a.inject({ method: 'POST', url: '/v', payload: { name: 'abc' } });
    expect(absent.json().error.details).toEqual([{ code: 'required', path: ['n'] }]);
  });

  it('renders AppErrors with their status, code and details', async () => {
    const a = await app();
    const res = await a.inject({ url: '/app' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: {
        statusCode: 409,
        code: 'TEST_ALREADY_EXISTS',
        message: 'dup',
        details: { grades: ['test_grade_duplicate'] },
      },
    });
    expect((await a.inject({ url: '/field' })).json().error).toMatchObject({
      code: 'CLIENT_ERROR',
      details: { teacherCode: ['code_exists'] },
    });
  });

  it('hides the internals of unknown failures', async () => {
    const a = await app();
    const res = await a.inject({ url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json().error.code).toBe('GENERAL_ERROR');
    expect(res.body).not.toContain('hunter2');
  });

  it('keeps Fastify 4xx as 4xx: malformed JSON, wrong media type, unknown route', async () => {
    const a = await app();
    const bad = await a.inject({
      method: 'POST',
      url: '/v',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('CLIENT_ERROR');
    const media = await a.inject({
      method: 'POST',
      url: '/v',
      headers: { 'content-type': 'text/csv' },
      payload: 'a,b',
    });
    expect(media.statusCode).toBe(415);
    const none = await a.inject({ url: '/nope' });
    expect(none.statusCode).toBe(404);
    expect(none.json().error.code).toBe('NOT_FOUND');
  });
});
