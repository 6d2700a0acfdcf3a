import { describe, expect, it } from 'vitest';
import { describeFilter, describeWhere, exampleFilter, exampleWhere } from './describe.js';
import { thingsResource } from './filter.fixture.js';
import { MAX_INQ_ITEMS, OPERATORS, parseFilter, parseWhere } from './parse.js';
import type { ListResource } from './types.js';

const doc = { resources: [{ resource: thingsResource }], defaultLimit: 25 };

describe('the words of a list filter', () => {
  it('names every field with its type, and every operator the parser takes', () => {
    const text = describeFilter(doc);
    for (const [name, spec] of Object.entries(thingsResource.fields)) {
      expect(text).toContain(`\`${name}\``);
      if (spec.filterable === false)
        expect(text).toMatch(new RegExp(`\`${name}\` \\([^)]*not in where`));
    }
    for (const ops of Object.values(OPERATORS)) {
      for (const op of ops) expect(text).toContain(op);
    }
    expect(text).toContain('default 25');
    expect(text).toContain('`name ASC`');
    expect(text).toContain(MAX_INQ_ITEMS.toLocaleString('en'));
    // `include` is offered only where a list reads it.
    expect(text).not.toContain('`include`');
    expect(describeFilter({ ...doc, extraKeys: { include: 'the relation' } })).toContain(
      '`include`: the relation',
    );
  });

  it('says which fields each kind of caller may use when they differ', () => {
    const narrow: ListResource = {
      ...thingsResource,
      fields: { rank: thingsResource.fields.rank as ListResource['fields'][string] },
    };
    const text = describeWhere({
      resources: [
        { resource: thingsResource, who: 'staff' },
        { resource: narrow, who: 'students' },
      ],
    });
    expect(text).toContain('Fields for staff: `_id`');
    expect(text).toContain('Fields for students: `rank`');
  });

  it('shows examples the parser accepts', () => {
    const filter = parseFilter(JSON.stringify(exampleFilter(thingsResource)), thingsResource);
    expect(filter.where).toMatchObject({ op: 'ilike', field: 'name', value: 'a%' });
    expect(filter.limit).toBe(10);
    expect(parseWhere(JSON.stringify(exampleWhere(thingsResource)), thingsResource)).toBeDefined();
    // A list with no text field shows a condition on another type.
    const numbers: ListResource = {
      ...thingsResource,
      fields: { rank: thingsResource.fields.rank as ListResource['fields'][string] },
      defaultOrder: ['rank ASC'],
    };
    expect(parseWhere(JSON.stringify(exampleWhere(numbers)), numbers)).toMatchObject({
      op: 'gte',
      field: 'rank',
    });
  });
});
