import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementImage } from '../../../shared/statement.js';
import { files, questions } from '../../db/schema.js';
import { uuidv7 } from '../../lib/ids.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import {
  API,
  codeOf,
  detailsOf,
  type Headers,
  type Part,
  questionsKit,
  tinyGif,
  tinyJpeg,
  tinyPng,
} from './questions.fixtures.js';

const MAX_BYTES = 4096;

let t: TestApp;
let kit: ReturnType<typeof questionsKit>;

beforeAll(async () => {
  t = await buildTestApp({
    env: { AUTH_RATE_LIMIT_PER_MINUTE: '100000', UPLOAD_MAX_BYTES: String(MAX_BYTES) },
  });
  kit = questionsKit(t);
});
afterAll(async () => {
  await t.close();
});

const png = (name = 'figura.png', data = tinyPng()): Part => ({
  name: 'file',
  filename: name,
  type: 'image/png',
  value: data,
});
const uploadImage = async (headers: Headers, part: Part = png()) => {
  const res = await kit.upload('/files', headers, [part]);
  expect(res.statusCode).toBe(200);
  return (res.json() as { _id: string })._id;
};
const read = (id: string, headers: Headers) => kit.call('GET', `/files/${id}`, headers);

const question = (itemQ: string, extra: object = {}) => ({
  itemQ,
  itemDiscipline: 'Matematică',
  itemGrade: 5,
  difficulty: 'medium',
  itemType: 'open',
  ...extra,
});

describe('POST /files', () => {
  it('stores png and jpeg images, checked from their bytes', async () => {
    const w = await kit.world();
    const res = await kit.upload('/files', w.examAdmin.headers, [png()]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      _id: expect.any(String),
      mime: 'image/png',
      size: tinyPng().length,
    });
    // A jpeg named .png is stored as what it is.
    const jpeg = await kit.upload('/files', w.outsider.headers, [
      { ...png('poza.png'), value: tinyJpeg() },
    ]);
    expect(jpeg.json()).toMatchObject({ mime: 'image/jpeg' });
    // The field may also be called `image`.
    const image = await kit.upload('/files', w.admin.headers, [{ ...png(), name: 'image' }]);
    expect(image.statusCode).toBe(200);
  });

  it('refuses other types whatever their name, oversize files and bad bodies', async () => {
    const w = await kit.world();
    const h = w.examAdmin.headers;
    const gif = await kit.upload('/files', h, [{ ...png('a.png'), value: tinyGif() }]);
    expect({ status: gif.statusCode, code: codeOf(gif) }).toEqual({
      status: 415,
      code: 'FILE_TYPE_NOT_ALLOWED',
    });
    const text = await kit.upload('/files', h, [
      { ...png('a.jpg'), type: 'image/jpeg', value: Buffer.from('nu sunt o imagine') },
    ]);
    expect(codeOf(text)).toBe('FILE_TYPE_NOT_ALLOWED');
    const svg = await kit.upload('/files', h, [
      {
        ...png('a.svg'),
        type: 'image/svg+xml',
        value: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        ),
      },
    ]);
    expect(codeOf(svg)).toBe('FILE_TYPE_NOT_ALLOWED');
    const big = await kit.upload('/files', h, [png('mare.png', tinyPng(MAX_BYTES + 1))]);
    expect({ status: big.statusCode, code: codeOf(big) }).toEqual({
      status: 413,
      code: 'FILE_TOO_LARGE',
    });
    const justFits = await kit.upload('/files', h, [png('exact.png', tinyPng(MAX_BYTES))]);
    expect(justFits.statusCode).toBe(200);

    const none = await kit.upload('/files', h, [{ name: 'note', value: 'fără fișier' }]);
    expect(detailsOf(none)).toEqual({ file: ['required'] });
    const two = await kit.upload('/files', h, [png('a.png'), png('b.png')]);
    expect(detailsOf(two)).toEqual({ file: ['too_long'] });
    const wrongField = await kit.upload('/files', h, [{ ...png(), name: 'poza' }]);
    expect(codeOf(wrongField)).toBe('VALIDATION_FAILED');
    expect(detailsOf(wrongField)).toEqual([{ code: 'invalid', path: ['poza'] }]);

    const json = await kit.call('POST', '/files', h, { file: 'abc' });
    expect({ status: json.statusCode, code: codeOf(json) }).toEqual({
      status: 400,
      code: 'INVALID_MULTIPART',
    });
    const truncated = await t.app.inject({
      method: 'POST',
      url: `${API}/files`,
      headers: { ...h, 'content-type': 'multipart/form-data; boundary=xyz' },
      payload:
        '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG',
    });
    expect(truncated.statusCode).toBe(400);
    expect(codeOf(truncated)).toBe('INVALID_MULTIPART');
    const noBoundary = await t.app.inject({
      method: 'POST',
      url: `${API}/files`,
      headers: { ...h, 'content-type': 'multipart/form-data' },
      payload: 'garbage',
    });
    expect(noBoundary.statusCode).toBeGreaterThanOrEqual(400);
    expect(noBoundary.statusCode).toBeLessThan(500);

    const stored = await t.database.db.select().from(files);
    expect(stored.every((f) => f.mime === 'image/png' || f.mime === 'image/jpeg')).toBe(true);
  });

  it('is for teachers and admins', async () => {
    const w = await kit.world();
    const asStudent = await kit.upload('/files', w.student.headers, [png()]);
    expect(asStudent.statusCode).toBe(403);
    const asGuest = await kit.upload('/files', {}, [png()]);
    expect(asGuest.statusCode).toBe(401);
  });
});

describe('GET /files/{id}', () => {
  it('serves the uploader and whoever may read a bank that shows the image', async () => {
    const w = await kit.world();
    const id = await uploadImage(w.examAdmin.headers);

    const own = await read(id, w.examAdmin.headers);
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/png');
    expect(own.rawPayload.equals(tinyPng())).toBe(true);
    // Not yet shown by any question: nobody else reads it (admins excepted).
    for (const who of [w.staff, w.outsider, w.coordinator, w.student]) {
      expect((await read(id, who.headers)).statusCode).toBe(404);
    }
    expect((await read(id, w.admin.headers)).statusCode).toBe(200);

    const created = await kit.call(
      'POST',
      w.items,
      w.examAdmin.headers,
      question(`Priviți figura:\n\n${statementImage(id, 'Figura 1')}`),
    );
    expect(created.statusCode).toBe(201);
    expect(created.json().images).toEqual([id]);
    expect((await read(id, w.staff.headers)).statusCode).toBe(200);
    for (const who of [w.outsider, w.coordinator, w.student]) {
      expect((await read(id, who.headers)).statusCode).toBe(404);
    }
    expect((await read(id, {})).statusCode).toBe(401);
    expect((await read(uuidv7(), w.admin.headers)).statusCode).toBe(404);
    expect(codeOf(await read('abc', w.admin.headers))).toBe('VALIDATION_FAILED');

    // A student sees it once a test with the question is theirs.
    const [row] = await t.database.db
      .select()
      .from(questions)
      .where(eq(questions.id, created.json()._id));
    if (!row) throw new Error('question missing');
    const test = await kit.putInTest(w.phase.id, [row]);
    expect((await read(id, w.student.headers)).statusCode).toBe(404);
    await kit.startAttempt(test.id, w.student.id, [row.id]);
    expect((await read(id, w.student.headers)).statusCode).toBe(200);
    const classmate = await kit.person({ type: 'student' });
    expect((await read(id, classmate.headers)).statusCode).toBe(404);
  });

  it('stops serving a bank image to staff once its question is deleted', async () => {
    const w = await kit.world();
    const id = await uploadImage(w.examAdmin.headers);
    const created = await kit.call(
      'POST',
      w.items,
      w.examAdmin.headers,
      question('Alegeți figura:', {
        itemType: 'single',
        itemAnswers: ['prima', statementImage(id)],
        itemCorrectAnswers: [1],
      }),
    );
    expect(created.json().images).toEqual([id]);
    expect((await read(id, w.staff.headers)).statusCode).toBe(200);
    await kit.call('DELETE', `${w.items}/${created.json()._id}`, w.examAdmin.headers);
    expect((await read(id, w.staff.headers)).statusCode).toBe(404);
    expect((await read(id, w.examAdmin.headers)).statusCode).toBe(200);
  });
});

describe('images in questions', () => {
  it('accepts only stored images the author may read, on the field they came from', async () => {
    const w = await kit.world();
    const mine = await uploadImage(w.examAdmin.headers);
    const theirs = await uploadImage(w.outsider.headers);
    const post = (body: object) => kit.call('POST', w.items, w.examAdmin.headers, body);

    const withOwn = await post(question(statementImage(mine), { imageFileId: mine }));
    expect(withOwn.statusCode).toBe(201);
    expect(withOwn.json()).toMatchObject({ imageFileId: mine, images: [mine] });

    const foreign = await post(question(`Vezi ${statementImage(theirs)}`));
    expect(detailsOf(foreign)).toEqual({ itemQ: ['invalid'] });
    expect(detailsOf(await post(question('x', { imageFileId: theirs })))).toEqual({
      imageFileId: ['invalid'],
    });
    expect(detailsOf(await post(question(statementImage(uuidv7()))))).toEqual({
      itemQ: ['invalid'],
    });
    const inOption = await post(
      question('Care?', {
        itemType: 'single',
        itemAnswers: ['a', statementImage(theirs)],
        itemCorrectAnswers: [0],
      }),
    );
    expect(detailsOf(inOption)).toEqual({ itemAnswers: ['invalid'] });

    // A stored file that is not an image (an answer scan) is not one a statement may show.
    const pdfId = uuidv7();
    await t.database.db.insert(files).values({
      id: pdfId,
      storageKey: `files/${pdfId}`,
      mime: 'application/pdf',
      size: 10,
      sha256: 'x',
      ownerId: w.examAdmin.id,
    });
    expect(detailsOf(await post(question('x', { imageFileId: pdfId })))).toEqual({
      imageFileId: ['invalid'],
    });

    const tooMany = Array.from({ length: 21 }, () => statementImage(uuidv7())).join(' ');
    expect(detailsOf(await post(question(tooMany)))).toEqual({ itemQ: ['too_long'] });

    // Platform admins may show any stored image.
    const asAdmin = await kit.call(
      'POST',
      w.items,
      w.admin.headers,
      question(statementImage(theirs)),
    );
    expect(asAdmin.statusCode).toBe(201);

    // An edit checks only the images it adds.
    const questionId = withOwn.json()._id as string;
    const added = await kit.call('PATCH', `${w.items}/${questionId}`, w.examAdmin.headers, {
      itemQ: `${statementImage(mine)} ${statementImage(uuidv7())}`,
    });
    expect(detailsOf(added)).toEqual({ itemQ: ['invalid'] });
    const kept = await kit.call('PATCH', `${w.items}/${questionId}`, w.examAdmin.headers, {
      itemQ: `Figura de mai jos:\n\n${statementImage(mine)}`,
      imageFileId: null,
    });
    expect(kept.json()).toMatchObject({ imageFileId: null, images: [mine] });
  });
});
