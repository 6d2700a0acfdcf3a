import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, files } from '../db/schema.js';
import { buildTestApp, type TestApp } from '../test/app.js';
import { fixedClock, type Signed, smallCompetition } from '../test/competition.js';

/**
 * Every multipart route (the student's answer pages, the staff's entry of a paper answer, the
 * statement images, the question imports from images and from a spreadsheet) reads its body
 * the same way: a body that is not well-formed multipart is 400 INVALID_MULTIPART, never a
 * 500, and nothing is stored.
 */

let t: TestApp;
let routes: { name: string; url: string; who: Signed }[];

beforeAll(async () => {
  t = await buildTestApp({ clock: fixedClock() });
  const w = await smallCompetition(t);
  const tests = `/api/v1/upload-mgmt${w.phasePath(w.hybrid.id)}/tests/${w.hybridTest.id}`;
  const items = `/api/v1/resource-mgmt${w.phasePath(w.online.id)}/items`;
  routes = [
    {
      name: 'student answer pages',
      url: `${tests}/items/${w.hybridItemId}/answers`,
      who: w.student,
    },
    {
      name: 'staff entry of a paper answer',
      url: `${tests}/students/${w.student.id}/items/${w.hybridItemId}/answers`,
      who: w.examAdmin,
    },
    { name: 'statement image', url: '/api/v1/resource-mgmt/files', who: w.examAdmin },
    { name: 'question import from images', url: `${items}/files`, who: w.examAdmin },
    { name: 'question import from a spreadsheet', url: `${items}/import`, who: w.examAdmin },
  ];
});
afterAll(() => t.close());

const BAD_BODIES: { name: string; type: string; payload: string }[] = [
  { name: 'no boundary', type: 'multipart/form-data', payload: '--x\r\n\r\nabc' },
  {
    name: 'cut short',
    type: 'multipart/form-data; boundary=b',
    payload:
      '--b\r\nContent-Disposition: form-data; name="item_0"; filename="a.pdf"\r\n\r\n%PDF-1.4',
  },
  {
    name: 'no part at all',
    type: 'multipart/form-data; boundary=b',
    payload: 'garbage with no boundary in it',
  },
  {
    name: 'an endless header',
    type: 'multipart/form-data; boundary=b',
    payload: `--b\r\nContent-Disposition: form-data; name="item_0"${'x'.repeat(90_000)}`,
  },
  { name: 'JSON instead', type: 'application/json', payload: '{"item_0":"abc"}' },
];

describe('a malformed multipart body', () => {
  it('is 400 INVALID_MULTIPART on every multipart route, and stores nothing', async () => {
    const before = {
      files: (await t.database.db.select().from(files)).length,
      answers: (await t.database.db.select().from(answers)).length,
    };
    const seen: string[] = [];
    for (const route of routes) {
      for (const bad of BAD_BODIES) {
        const res = await t.app.inject({
          method: 'POST',
          url: route.url,
          headers: { ...route.who.headers, 'content-type': bad.type },
          payload: bad.payload,
        });
        const code = (res.json() as { error?: { code?: string } }).error?.code;
        seen.push(`${route.name} / ${bad.name}: ${res.statusCode} ${code}`);
      }
    }
    expect(seen).toEqual(
      routes.flatMap((route) =>
        BAD_BODIES.map((bad) => `${route.name} / ${bad.name}: 400 INVALID_MULTIPART`),
      ),
    );
    expect((await t.database.db.select().from(files)).length).toBe(before.files);
    expect((await t.database.db.select().from(answers)).length).toBe(before.answers);
  });
});
