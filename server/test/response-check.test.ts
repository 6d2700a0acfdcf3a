import { describe, expect, it } from 'vitest';
import {
  type Answer,
  type OpenApiDocument,
  responseChecker,
  toJsonSchemaDialect,
} from './response-check.js';

const json = (value: unknown): Pick<Answer, 'contentType' | 'body'> => ({
  contentType: 'application/json; charset=utf-8',
  body: Buffer.from(JSON.stringify(value)),
});

const ID = '0196d9a4-7c1e-7000-8000-000000000001';

/** A description in OpenAPI 3.0's words, as the server's is today. */
const described: OpenApiDocument = {
  openapi: '3.0.3',
  paths: {
    '/api/v1/things/{id}': {
      get: {
        responses: {
          200: {
            description: 'A thing',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          404: {
            description: 'No such thing',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    error: { type: 'object', properties: { code: { type: 'string' } } },
                  },
                  required: ['error'],
                },
              },
            },
          },
        },
      },
      delete: { responses: { 204: { description: 'Gone' } } },
    },
    '/api/v1/things/mine': {
      get: {
        responses: {
          200: {
            description: 'Mine',
            content: {
              'application/json': { schema: { type: 'array', items: { type: 'string' } } },
            },
          },
        },
      },
    },
    '/api/v1/things/': {
      post: {
        responses: {
          201: {
            description: 'Made',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
        },
      },
    },
    '/api/v1/things/{id}/sheet': {
      get: {
        responses: {
          200: {
            description: 'A spreadsheet',
            content: {
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
                schema: { type: 'string', format: 'binary' },
              },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        properties: {
          _id: { type: 'string', format: 'uuid' },
          note: { type: 'string', nullable: true },
          score: { type: 'number', minimum: 0, exclusiveMinimum: true },
        },
        required: ['_id', 'note', 'score'],
        additionalProperties: false,
      },
    },
  },
};

const thing = { _id: ID, note: null, score: 7 };
const get = (path: string, statusCode: number, body: unknown): Answer => ({
  method: 'GET',
  path,
  statusCode,
  ...json(body),
});

describe('responseChecker', () => {
  const check = responseChecker(described);

  it('passes an answer its description promises, `nullable` and `$ref` included', () => {
    expect(check(get(`/api/v1/things/${ID}`, 200, thing))).toBeUndefined();
    expect(check(get(`/api/v1/things/${ID}`, 200, { ...thing, note: 'o notă' }))).toBeUndefined();
    expect(
      check(get(`/api/v1/things/${ID}`, 404, { error: { code: 'NOT_FOUND' } })),
    ).toBeUndefined();
  });

  it('fails a body that does not match: a wrong type, a missing or an extra field', () => {
    const url = `/api/v1/things/${ID}`;
    expect(check(get(url, 200, { ...thing, score: 'seven' }))).toMatch(
      /^GET \/api\/v1\/things\/\{id\} answered 200 with a body that does not match its description: \/score must be number/,
    );
    expect(check(get(url, 200, { _id: ID, score: 1 }))).toMatch(
      /must have required property 'note'/,
    );
    expect(check(get(url, 200, { ...thing, passwordHash: 'x' }))).toMatch(
      /must NOT have additional properties \(passwordHash\)/,
    );
    expect(check(get(url, 200, { ...thing, _id: 'not-a-uuid' }))).toMatch(
      /\/_id must match format "uuid"/,
    );
  });

  it("reads OpenAPI 3.0's boolean exclusiveMinimum as JSON Schema's number", () => {
    expect(check(get(`/api/v1/things/${ID}`, 200, { ...thing, score: 0 }))).toMatch(
      /\/score must be > 0/,
    );
  });

  it('fails a success status the operation does not document', () => {
    expect(check(get(`/api/v1/things/${ID}`, 202, thing))).toBe(
      'GET /api/v1/things/{id} answered 202, a status its description does not document (it documents 200, 404)',
    );
  });

  it('fails an undocumented error status unless told to ignore it; a documented one is checked', () => {
    const refused = get(`/api/v1/things/${ID}`, 403, {
      error: { code: 'OPERATION_NOT_PERMITTED' },
    });
    expect(check(refused)).toMatch(/answered 403, a status its description does not document/);
    expect(responseChecker(described, { undocumentedStatus: 'ignore' })(refused)).toBeUndefined();
    expect(check(get(`/api/v1/things/${ID}`, 404, { message: 'no' }))).toMatch(
      /answered 404 with a body that does not match its description: \(body\) must have required property 'error'/,
    );
  });

  it('fails a body that is not JSON, or a JSON body where none is documented', () => {
    expect(
      check({
        method: 'GET',
        path: `/api/v1/things/${ID}`,
        statusCode: 200,
        contentType: 'application/json',
        body: Buffer.from('{'),
      }),
    ).toMatch(/a body that is not JSON/);
    expect(
      check({
        method: 'DELETE',
        path: `/api/v1/things/${ID}`,
        statusCode: 204,
        contentType: undefined,
        body: Buffer.alloc(0),
      }),
    ).toBeUndefined();
    expect(
      check({ method: 'DELETE', path: `/api/v1/things/${ID}`, statusCode: 204, ...json(thing) }),
    ).toMatch(/answered 204 with a JSON body its description does not document/);
  });

  it('checks a file by its media type', () => {
    const sheet = (contentType: string): Answer => ({
      method: 'GET',
      path: `/api/v1/things/${ID}/sheet`,
      statusCode: 200,
      contentType,
      body: Buffer.from('PK'),
    });
    expect(
      check(sheet('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')),
    ).toBeUndefined();
    expect(check(sheet('text/csv'))).toMatch(/with text\/csv, which its description does not name/);
  });

  it('finds the operation as the router does: a fixed segment first, a slash twin as its path', () => {
    expect(check(get('/api/v1/things/mine', 200, ['a']))).toBeUndefined();
    expect(check(get('/api/v1/things/mine', 200, thing))).toMatch(
      /^GET \/api\/v1\/things\/mine answered 200/,
    );
    const made = { method: 'POST', path: '/api/v1/things', statusCode: 201, ...json(thing) };
    expect(check(made)).toBeUndefined();
    expect(check({ ...made, ...json({}) })).toMatch(/^POST \/api\/v1\/things\/ answered 201/);
  });

  it('leaves alone what is no operation of the description', () => {
    expect(check(get('/api/v1/nothing/here', 200, { any: 'thing' }))).toBeUndefined();
    expect(check(get('/api/docs/json', 200, {}))).toBeUndefined();
    expect(check({ ...get(`/api/v1/things/${ID}`, 200, {}), method: 'HEAD' })).toBeUndefined();
  });

  it('understands OpenAPI 3.1 (JSON Schema 2020-12) descriptions too', () => {
    const modern = responseChecker({
      openapi: '3.1.0',
      paths: {
        '/x': {
          get: {
            responses: {
              200: {
                description: 'x',
                content: {
                  'application/json': {
                    schema: {
                      anyOf: [
                        { type: ['string', 'null'] },
                        { type: 'array', prefixItems: [{ type: 'integer' }] },
                      ],
                    },
                  },
                },
              },
            },
          },
        },
      },
    });
    expect(modern(get('/x', 200, null))).toBeUndefined();
    expect(modern(get('/x', 200, 'a'))).toBeUndefined();
    expect(modern(get('/x', 200, [1, 'a']))).toBeUndefined();
    expect(modern(get('/x', 200, 1))).toMatch(/must be string,null/);
    // prefixItems is 2020-12's: a draft-07 validator would let this through.
    expect(modern(get('/x', 200, ['a']))).toMatch(/\/0 must be integer/);
  });
});

describe('toJsonSchemaDialect', () => {
  it('turns nullable into a null type, keeps enums whole and leaves the input alone', () => {
    const input = {
      properties: {
        a: { type: 'string', enum: ['x'], nullable: true },
        b: { allOf: [{ $ref: '#/components/schemas/B' }], nullable: true },
        c: { type: 'integer', maximum: 9, exclusiveMaximum: false },
      },
    };
    const before = structuredClone(input);
    expect(toJsonSchemaDialect(input)).toEqual({
      properties: {
        a: { type: ['string', 'null'], enum: ['x', null] },
        b: { anyOf: [{ allOf: [{ $ref: '#/components/schemas/B' }] }, { type: 'null' }] },
        c: { type: 'integer', maximum: 9 },
      },
    });
    expect(input).toEqual(before);
  });
});
