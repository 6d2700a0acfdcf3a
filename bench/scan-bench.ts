// `npm run bench -- scan [--pages 1000] [--seed 1]`: answer booklets of a hybrid test printed,
// scanned (bench scans from server/modules/uploads/scan.fixtures.ts: 150–300 dpi, skew up to 5°,
// a tenth upside down, speckle, a fold's shadow, JPEG quality 60), uploaded in chunks as one
// PDF, and read by the background job: time, pages a second, share matched without a person,
// wrong matches (a page stored for another student or question than printed on it), and
// `GET /health` timed meanwhile against before. Targets: 1,000 pages < 60 s, ≥ 99.5 % matched,
// 0 wrong.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { makeEnrolment, makeUser } from '../server/db/factories.js';
import { paperSeats, scanPages as scanPagesTable } from '../server/db/schema.js';
import { decodePageCode } from '../server/modules/uploads/paper-code.js';
import { scanPages, scanPdf } from '../server/modules/uploads/scan.fixtures.js';
import { uploadsKit } from '../server/modules/uploads/uploads.fixtures.js';
import { buildTestApp } from '../server/test/app.js';
import { BOOKLET_PAGES_PER_ITEM } from '../shared/schemas/paper.js';

const CHUNK = 8 * 1024 * 1024;

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** `GET /health` latencies while `running()` holds (one caller, 20 ms apart). */
async function healthWhile(base: string, running: () => boolean) {
  const times: number[] = [];
  while (running()) {
    const t0 = performance.now();
    await fetch(`${base}/api/v1/health`);
    times.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 20));
  }
  return times.sort((a, b) => a - b);
}

export async function scanBenchCli(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { pages: { type: 'string', default: '1000' }, seed: { type: 'string', default: '1' } },
  });
  const pagesWanted = Number(values.pages);
  const seed = Number(values.seed);
  const t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const kit = uploadsKit(t);
    const w = await kit.world();
    const db = t.database.db;
    const items = w.hybridTest.questionIds.length;
    const perStudent = 1 + items * BOOKLET_PAGES_PER_ITEM;
    const students = Math.ceil(pagesWanted / perStudent);
    for (let i = 0; i < students; i += 1) {
      const u = await makeUser(db, { type: 'student', grade: 7 });
      await makeEnrolment(db, {
        editionId: w.edition.id,
        studentId: u.id,
        grade: 7,
        phaseIds: [w.hybrid.id],
      });
    }
    const url = `${w.hybridUrl}/paper`;
    const job = (await kit.call('POST', `${url}/booklets`, w.examAdmin.headers, {})).json();
    await t.app.paperJobs.runPending();
    const pdf = (await kit.call('GET', `${url}/jobs/${job._id}/file`, w.examAdmin.headers))
      .rawPayload;

    // Made afresh each run: the codes on the pages are this run's students' and test's.
    const g0 = performance.now();
    const scan = await scanPdf(await scanPages(pdf, { seed }));
    console.log(`scans generated in ${((performance.now() - g0) / 1000).toFixed(1)} s`);

    const start = (
      await kit.call('POST', `${url}/scans`, w.examAdmin.headers, {
        fileName: 'stiva.pdf',
        size: scan.length,
      })
    ).json();
    const u0 = performance.now();
    for (let offset = 0; offset < scan.length; offset += CHUNK) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/upload-mgmt${url}/scans/${start._id}`,
        headers: {
          ...w.examAdmin.headers,
          'content-type': 'application/offset+octet-stream',
          'upload-offset': String(offset),
        },
        payload: scan.subarray(offset, offset + CHUNK),
      });
      if (res.statusCode !== 200) throw new Error(`chunk: ${res.statusCode} ${res.body}`);
    }
    const uploadS = (performance.now() - u0) / 1000;

    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const idle = await (async () => {
      let n = 0;
      return healthWhile(base, () => n++ < 100);
    })();
    let running = true;
    const busyHealth = healthWhile(base, () => running);
    const r0 = performance.now();
    await t.app.paperJobs.runPending();
    const readS = (performance.now() - r0) / 1000;
    running = false;
    const busy = await busyHealth;

    const pages = await db.select().from(scanPagesTable).where(eq(scanPagesTable.jobId, start._id));
    const seats = new Map(
      (await db.select().from(paperSeats).where(eq(paperSeats.testId, w.hybridTest.test.id))).map(
        (s) => [s.studentId, s.code],
      ),
    );
    const spares = pages.filter((p) => p.qrText && decodePageCode(p.qrText)?.kind === 'spare');
    const printed = pages.length - spares.length;
    const matched = pages.filter((p) => p.state === 'stored' || p.state === 'cover');
    // Wrong: stored for a student or question other than the code printed on the page says.
    // The scan keeps its order, so page N of the stack is page N of the booklets PDF.
    let wrong = 0;
    for (const p of matched) {
      const printedCode = p.qrText ? decodePageCode(p.qrText) : undefined;
      if (!printedCode || printedCode.kind === 'spare') continue;
      if (p.studentId && seats.get(p.studentId) !== printedCode.code) wrong += 1;
      if (printedCode.kind === 'answer') {
        const expectedItem = w.hybridTest.questionIds[printedCode.itemIndex - 1];
        if (p.questionId !== expectedItem || p.bookletPage !== printedCode.page) wrong += 1;
      }
    }
    const rate = (100 * matched.length) / Math.max(1, printed);
    console.log(
      [
        `pages: ${pages.length} (${printed} printed for students, ${spares.length} spare)`,
        `upload: ${uploadS.toFixed(1)} s for ${(scan.length / 1e6).toFixed(1)} MB in ${CHUNK / 1e6} MB chunks`,
        `read: ${readS.toFixed(1)} s, ${(pages.length / readS).toFixed(1)} pages/s (target 1,000 pages < 60 s)`,
        `matched without a person: ${matched.length}/${printed} = ${rate.toFixed(2)} % (target ≥ 99.5 %)`,
        `waiting for a person: ${pages.filter((p) => p.state === 'waiting').length - spares.length} printed + ${spares.length} spare`,
        `wrong matches: ${wrong} (target 0)`,
        `GET /health p50/p99 before: ${percentile(idle, 50).toFixed(1)}/${percentile(idle, 99).toFixed(1)} ms; while reading: ${percentile(busy, 50).toFixed(1)}/${percentile(busy, 99).toFixed(1)} ms (${busy.length} calls)`,
      ].join('\n'),
    );
    return wrong === 0 ? 0 : 1;
  } finally {
    await t.close();
  }
}
