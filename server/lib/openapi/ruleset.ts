import {
  createRulesetFunction,
  type IFunctionResult,
  type RuleDefinition,
  type RulesetDefinition,
} from '@stoplight/spectral-core';
import { truthy } from '@stoplight/spectral-functions';
import { oas } from '@stoplight/spectral-rulesets';
import { ERROR_BODY } from './error-responses.js';

// The rules the OpenAPI description is held to (openapi.api.test.ts runs them): Spectral's
// recommended `spectral:oas` rules, and Podium's own on top — every operation says how it
// fails, in the one error envelope; lists say what their `filter` and `where` take; every
// parameter is described; every JSON body and success answer has an example.

type Json = Record<string, unknown>;
const ERROR_REF = `#/components/schemas/${ERROR_BODY}`;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** 400 everywhere; 401 where a token is needed; 404 where the path names something. */
const operationErrors = createRulesetFunction<Json, null>(
  { input: { type: 'object' }, options: null },
  (operation, _options, context) => {
    const results: IFunctionResult[] = [];
    const path = context.path;
    const template = String(path[1] ?? '');
    const responses = isObject(operation.responses) ? operation.responses : {};
    const security = Array.isArray(operation.security)
      ? operation.security
      : (context.document.data as Json).security;
    const needsToken = Array.isArray(security) && security.length > 0;
    const want = ['400', 'default'];
    if (needsToken) want.push('401');
    if (template.includes('{')) want.push('404');
    for (const status of want) {
      if (!responses[status]) {
        results.push({
          message: `${status} response missing (${needsToken ? 'guarded' : 'public'} operation)`,
          path: [...path, 'responses'],
        });
      }
    }
    for (const [status, response] of Object.entries(responses)) {
      // 5xx answers may have their own shape (health's 503 says what is down).
      if (!/^4\d\d$/.test(status) && status !== 'default') continue;
      const content = isObject(response) && isObject(response.content) ? response.content : {};
      const media = content['application/json'];
      const schema = isObject(media) ? media.schema : undefined;
      if (!isObject(schema) || schema.$ref !== ERROR_REF) {
        results.push({
          message: `${status} answers with something other than the ${ERROR_BODY} envelope`,
          path: [...path, 'responses', status],
        });
      }
      if (!isObject(media) || media.example === undefined) {
        results.push({ message: `${status} has no example`, path: [...path, 'responses', status] });
      }
    }
    return results;
  },
);

/** `filter` and `where` say their fields, operators and limits, and show an example. */
const listParameter = createRulesetFunction<Json, null>(
  { input: { type: 'object' }, options: null },
  (parameter, _options, context) => {
    if (parameter.in !== 'query' || (parameter.name !== 'filter' && parameter.name !== 'where')) {
      return [];
    }
    const text = typeof parameter.description === 'string' ? parameter.description : '';
    const missing = [
      /Fields/.test(text) ? '' : 'its fields',
      /operator/i.test(text) ? '' : 'its operators',
      /Limits/.test(text) ? '' : 'its limits',
      parameter.example !== undefined ? '' : 'an example',
      isObject(parameter.schema) && typeof parameter.schema.maxLength === 'number'
        ? ''
        : 'a maxLength',
    ].filter(Boolean);
    return missing.length
      ? [{ message: `\`${parameter.name}\` lacks ${missing.join(', ')}`, path: context.path }]
      : [];
  },
);

/** A JSON request body and each JSON success answer carry an example. */
const operationExamples = createRulesetFunction<Json, null>(
  { input: { type: 'object' }, options: null },
  (operation, _options, context) => {
    const results: IFunctionResult[] = [];
    const media: [string[], unknown][] = [];
    const body = isObject(operation.requestBody) ? operation.requestBody.content : undefined;
    if (isObject(body) && body['application/json']) {
      media.push([['requestBody', 'content', 'application/json'], body['application/json']]);
    }
    const responses = isObject(operation.responses) ? operation.responses : {};
    for (const [status, response] of Object.entries(responses)) {
      if (!/^2\d\d$/.test(status) || !isObject(response) || !isObject(response.content)) continue;
      const json = response.content['application/json'];
      if (json) media.push([['responses', status, 'content', 'application/json'], json]);
    }
    for (const [where, value] of media) {
      if (!isObject(value) || (value.example === undefined && value.examples === undefined)) {
        results.push({ message: 'no example', path: [...context.path, ...where] });
      }
    }
    return results;
  },
);

const OPERATIONS = '$.paths[*][get,put,post,delete,patch]';

type RuleParts = Omit<RuleDefinition, 'then'> & { check: RuleDefinition['then'] };

/** A rule; Spectral names its check `then`, a name the linter keeps for promises. */
const rule = ({ check, ...parts }: RuleParts): RuleDefinition =>
  // biome-ignore lint/suspicious/noThenProperty: Spectral's rule format.
  ({ ...parts, then: check });

export const ruleset: RulesetDefinition = {
  extends: [oas as RulesetDefinition],
  rules: {
    'podium-error-envelope': rule({
      description: 'The error envelope is one of the schemas.',
      given: '$.components.schemas',
      severity: 'error',
      check: { field: ERROR_BODY, function: truthy },
    }),
    'podium-operation-errors': rule({
      description:
        'Every operation has 400 and default, 401 when it needs a token, 404 when its path names a resource, all 4xx in the error envelope.',
      given: OPERATIONS,
      severity: 'error',
      resolved: false,
      message: '{{error}}',
      check: { function: operationErrors },
    }),
    'podium-parameter-description': rule({
      description: 'Every parameter is described.',
      given: '$.paths[*][*].parameters[*]',
      severity: 'error',
      check: { field: 'description', function: truthy },
    }),
    'podium-list-parameters': rule({
      description: '`filter` and `where` say their fields, operators and limits.',
      given: '$.paths[*][*].parameters[*]',
      severity: 'error',
      message: '{{error}}',
      check: { function: listParameter },
    }),
    'podium-operation-examples': rule({
      description: 'A JSON request body and JSON success answers have an example.',
      given: OPERATIONS,
      severity: 'error',
      resolved: false,
      message: '{{error}}',
      check: { function: operationExamples },
    }),
    'podium-operation-tag': rule({
      description: 'Every operation belongs to one service.',
      given: OPERATIONS,
      severity: 'error',
      check: { field: 'tags', function: truthy },
    }),
  },
};
